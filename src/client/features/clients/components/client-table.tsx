import { displayName } from '../../../../shared/names.ts';
import { Link } from 'react-router';
import { ChevronRight } from 'lucide-react';
import { daysBetween } from '../../../../shared/dates.ts';
import { BalanceAmount } from '../../../components/balance-amount.tsx';
import type { Client, ClientSort } from '../../../../shared/schemas/clients.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

interface ClientTableProps {
  clients: Client[];
  /** The day the list was worked out for: days overdue count from it. */
  asOf: string;
  sort: ClientSort;
  dir: 'asc' | 'desc';
  onSort: (sort: ClientSort) => void;
}

function SortHeader({
  label,
  sort,
  props,
  className,
  hint,
}: {
  label: string;
  sort: ClientSort;
  props: ClientTableProps;
  className?: string;
  /** Said to a screen reader after the label: how this column sorts. */
  hint?: string;
}) {
  const active = props.sort === sort;
  const ariaSort = active ? (props.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  return (
    <th scope="col" aria-sort={ariaSort} className={className}>
      <button
        type="button"
        className="btn btn-link p-0 text-reset fw-bold text-decoration-none"
        onClick={() => props.onSort(sort)}
      >
        {label}
        {hint && <span className="visually-hidden"> ({hint})</span>}
        <span aria-hidden="true">{active ? (props.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** Days since the oldest unpaid amount fell due; null when nothing is overdue. */
function daysOverdue(client: Client, asOf: string): number | null {
  if (client.oldestDueDate === null) return null;
  const days = daysBetween(client.oldestDueDate, asOf);
  return days > 0 ? days : null;
}

export function ClientTable(props: ClientTableProps) {
  const { t } = useI18n();
  const { clients } = props;
  if (clients.length === 0)
    return <p className="text-body-secondary">{t('dashboard.table.none')}</p>;
  return (
    <div className="table-responsive surface">
      {props.sort === 'balance' && (
        // Amounts in different currencies cannot be compared without rates, so the server
        // groups by currency code first; say so rather than let the order look wrong.
        <p className="small text-body-secondary px-3 pt-2 mb-0" data-testid="balance-sort-note">
          {t('dashboard.table.sort-note', { dir: props.dir })}
        </p>
      )}
      <table
        className="table table-striped align-middle mb-0 tabular client-table"
        data-testid="client-table"
      >
        <caption className="visually-hidden">{t('dashboard.title')}</caption>
        <thead>
          <tr>
            <SortHeader label={t('dashboard.table.name')} sort="name" props={props} />
            <SortHeader
              label={t('dashboard.table.email')}
              sort="email"
              props={props}
              className="d-none d-md-table-cell"
            />
            <SortHeader
              label={t('dashboard.table.balance')}
              sort="balance"
              props={props}
              className="text-end"
              hint={t('dashboard.table.balance-hint')}
            />
            <th scope="col" className="text-end d-none d-sm-table-cell">
              {t('dashboard.table.overdue')}
            </th>
            <th scope="col" className="text-end text-nowrap cell-shrink">
              {t('dashboard.table.details')}
            </th>
          </tr>
        </thead>
        <tbody>
          {clients.map((client) => {
            const overdue = daysOverdue(client, props.asOf);
            return (
              <tr key={client.id}>
                {/* A long name wraps rather than pushing the balance off a phone's screen. */}
                <td className="text-break">
                  <Link to={`/client/${client.id}`} className="fw-semibold">
                    {client.company || displayName(client)}
                  </Link>
                  {/* A business's contact person, under its company: SPEC's first and last name. */}
                  {client.company && (
                    <div className="small text-body-secondary">{displayName(client)}</div>
                  )}
                </td>
                {/* A phone has room for the name and the balance; the e-mail is one tap away. */}
                <td className="cell-ellipsis d-none d-md-table-cell">
                  <a
                    href={`mailto:${client.email}`}
                    title={client.email}
                    className="link-body-emphasis"
                  >
                    {client.email}
                  </a>
                </td>
                <td className="text-end text-nowrap">
                  <BalanceAmount
                    minor={client.balance}
                    currency={client.currency}
                    layout="stacked"
                  />
                  {overdue !== null && (
                    <div className="small text-danger d-sm-none">
                      {t('dashboard.table.days-overdue', { days: overdue })}
                    </div>
                  )}
                </td>
                <td className="text-end text-nowrap text-danger d-none d-sm-table-cell">
                  {overdue !== null && t('dashboard.table.days', { days: overdue })}
                </td>
                {/* SPEC's Details link, on a phone too: its word is its name, kept on one line
                  (Korean may break between any two letters); a phone drops the chevron and the
                  padding to leave the name its room. */}
                <td className="text-end">
                  <Link
                    to={`/client/${client.id}`}
                    className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center text-nowrap px-1 px-sm-2"
                  >
                    {t('dashboard.table.details')}
                    <ChevronRight size={14} className="icon d-none d-sm-inline" aria-hidden />
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
