import { formatBalanceFigure, formatFigure } from '../../../../shared/money.ts';
import type { Statement } from '../../../../shared/schemas/statement.ts';
import {
  activityColumns,
  ageingColumns,
  cellsInOrder,
  openItemColumns,
  type StatementColumn,
} from '../../../../shared/statement-columns.ts';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { statementColumnMessages } from '../statement-column-messages.ts';
import { describeLine, kindLabel } from './statement-texts.ts';

type I18n = ReturnType<typeof useI18n>;

/** The shown language's days, and figures without a symbol (credits in parentheses). */
function useStatementFormat(statement: Statement) {
  const i18n = useI18n();
  const { format } = i18n;
  return {
    ...i18n,
    day: (isoDay: string) => format.day(isoDay),
    figure: (minor: number | string) =>
      formatFigure(BigInt(minor), statement.client.currency, format.intlLocale),
    balance: (minor: number | string) =>
      formatBalanceFigure(BigInt(minor), statement.client.currency, format.intlLocale),
  };
}

/** A table's header row from its columns: figures' headings at the end, over their figures. */
function HeaderRow({
  columns,
  t,
}: {
  columns: readonly StatementColumn<keyof typeof statementColumnMessages>[];
  t: I18n['t'];
}) {
  return (
    <tr>
      {columns.map((column) => (
        <th
          key={column.key}
          scope="col"
          className={column.align === 'end' ? 'text-end' : undefined}
        >
          {t(statementColumnMessages[column.key])}
        </th>
      ))}
    </tr>
  );
}

/** The bold first and last rows of the activity: a day, what it is, and the balance. */
function BalanceRow(props: { date: string; description: string; balance: string; testId: string }) {
  return (
    <tr className="fw-semibold">
      {cellsInOrder(activityColumns, {
        date: (
          <td key="date" className="text-nowrap">
            {props.date}
          </td>
        ),
        description: <td key="description">{props.description}</td>,
        dueDate: <td key="dueDate" />,
        amount: <td key="amount" />,
        balance: (
          <td key="balance" className="text-end text-nowrap" data-testid={props.testId}>
            {props.balance}
          </td>
        ),
      })}
    </tr>
  );
}

/** The items not yet paid: each with what was paid of it, what remains and how late it is. */
export function OpenItems({ statement }: { statement: Statement }) {
  const { t, format, day, figure } = useStatementFormat(statement);
  return (
    <>
      <h2 className="h6 mt-3">{t('statement.open-items')}</h2>
      {statement.openItems.length === 0 ? (
        <p className="text-body-secondary">{t('statement.nothing-unpaid')}</p>
      ) : (
        <ScrollRegion label={t('statement.open-items')} hint>
          <table
            className="table table-sm statement-table tabular"
            aria-label={t('statement.open-items')}
          >
            <thead>
              <HeaderRow columns={openItemColumns} t={t} />
            </thead>
            <tbody>
              {statement.openItems.map((item) => (
                <tr key={item.id}>
                  {cellsInOrder(openItemColumns, {
                    date: (
                      <td key="date" className="text-nowrap">
                        {day(item.date)}
                      </td>
                    ),
                    reference: <td key="reference">{item.reference || kindLabel(t, item.kind)}</td>,
                    dueDate: (
                      <td key="dueDate" className="text-nowrap">
                        {day(item.dueDate)}
                      </td>
                    ),
                    amount: (
                      <td key="amount" className="text-end text-nowrap">
                        {figure(item.amount)}
                      </td>
                    ),
                    paid: (
                      <td key="paid" className="text-end text-nowrap">
                        {figure(item.paid)}
                      </td>
                    ),
                    remaining: (
                      <td key="remaining" className="text-end text-nowrap">
                        {figure(item.remaining)}
                      </td>
                    ),
                    daysOverdue: (
                      <td key="daysOverdue" className="text-end text-nowrap text-owed">
                        {item.daysOverdue > 0 ? format.number(item.daysOverdue) : ''}
                      </td>
                    ),
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </>
  );
}

/** The period's lines between the balance brought forward and the closing balance. */
export function Activity({ statement }: { statement: Statement }) {
  const { t, day, figure, balance } = useStatementFormat(statement);
  const { period } = statement;
  return (
    <>
      <h2 className="h6 mt-3">{t('statement.activity')}</h2>
      <ScrollRegion label={t('statement.entries')} hint>
        <table
          className="table table-sm statement-table tabular"
          aria-label={t('statement.entries')}
        >
          <thead>
            <HeaderRow columns={activityColumns} t={t} />
          </thead>
          <tbody>
            <BalanceRow
              date={day(period.from)}
              description={t('statement.brought-forward')}
              balance={balance(statement.openingBalance)}
              testId="opening-balance"
            />
            {statement.lines.map((line) => (
              <tr key={line.id}>
                {cellsInOrder(activityColumns, {
                  date: (
                    <td key="date" className="text-nowrap">
                      {day(line.date)}
                    </td>
                  ),
                  description: <td key="description">{describeLine(t, line)}</td>,
                  dueDate: (
                    <td key="dueDate" className="text-nowrap">
                      {line.dueDate ? day(line.dueDate) : ''}
                    </td>
                  ),
                  amount: (
                    <td key="amount" className="text-end text-nowrap">
                      {figure(line.amount)}
                    </td>
                  ),
                  balance: (
                    <td key="balance" className="text-end text-nowrap">
                      {balance(line.balance)}
                    </td>
                  ),
                })}
              </tr>
            ))}
            {statement.lines.length === 0 && (
              <tr>
                <td />
                <td colSpan={activityColumns.length - 1} className="text-body-secondary">
                  {t('statement.no-entries')}
                </td>
              </tr>
            )}
            <BalanceRow
              date={day(period.to)}
              description={t('statement.closing')}
              balance={balance(statement.closingBalance)}
              testId="closing-balance"
            />
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}

/** What is owed by how late it is, as of the statement's last day. */
export function AgeingTable({ statement }: { statement: Statement }) {
  const { t, day, figure } = useStatementFormat(statement);
  const { ageing } = statement;
  return (
    <>
      <h2 className="h6 mt-3">{t('statement.ageing.heading', { day: day(ageing.asOf) })}</h2>
      {/* Six columns do not fit a phone: there the buckets are a list. */}
      <dl className="d-sm-none mb-0 tabular">
        {ageingColumns.map((column) =>
          column.key === 'total' ? (
            <div key={column.key} className="d-flex justify-content-between py-1 fw-semibold">
              <dt>{t(statementColumnMessages[column.key])}</dt>
              <dd className="mb-0 text-nowrap">{figure(ageing.owed)}</dd>
            </div>
          ) : (
            <div key={column.key} className="d-flex justify-content-between border-bottom py-1">
              <dt className="fw-normal">{t(statementColumnMessages[column.key])}</dt>
              <dd className={`mb-0 text-nowrap${column.key === 'current' ? '' : ' text-owed'}`}>
                {figure(ageing.buckets[column.key])}
              </dd>
            </div>
          ),
        )}
      </dl>
      <ScrollRegion label={t('statement.ageing.label')} className="d-none d-sm-block">
        <table className="table table-sm mb-0 tabular" aria-label={t('statement.ageing.label')}>
          <thead>
            <HeaderRow columns={ageingColumns} t={t} />
          </thead>
          <tbody>
            <tr>
              {ageingColumns.map((column) =>
                column.key === 'total' ? (
                  <td key={column.key} className="text-end text-nowrap fw-semibold">
                    {figure(ageing.owed)}
                  </td>
                ) : (
                  <td
                    key={column.key}
                    className={`text-end text-nowrap${column.key === 'current' ? '' : ' text-owed'}`}
                  >
                    {figure(ageing.buckets[column.key])}
                  </td>
                ),
              )}
            </tr>
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
