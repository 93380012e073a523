import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft, Copy, FileDown, FileSpreadsheet, Mail, Printer, Send, X } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { localToday } from '../../../../shared/dates.ts';
import { currencyLabel, formatFigure } from '../../../../shared/money.ts';
import {
  defaultPeriod,
  lineDetails,
  resolvePeriod,
  statementPeriodFormSchema,
  statementQuerySchema,
  statementSendFormSchema,
  type Statement,
  type StatementPeriod,
  type StatementPeriodForm,
  type StatementSendForm,
} from '../../../../shared/schemas/statement.ts';
import type { EntryKind } from '../../../../shared/schemas/ledger.ts';
import { useDocumentTitle } from '../../../components/document-title.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { statementFilePath, useSendStatement, useStatement } from '../api/statement.ts';
import { ClientNotFound } from '../../../components/client-not-found.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { displayName } from '../../../../shared/names.ts';
import {
  activityColumns,
  ageingColumns,
  cellsInOrder,
  openItemColumns,
  type StatementColumn,
} from '../../../../shared/statement-columns.ts';
import { statementColumnMessages } from '../statement-column-messages.ts';

type I18n = ReturnType<typeof useI18n>;

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

function kindLabel(t: I18n['t'], kind: EntryKind): string {
  switch (kind) {
    case 'opening':
      return t('statement.kind.opening');
    case 'charge':
      return t('statement.kind.charge');
    case 'payment':
      return t('statement.kind.payment');
    case 'credit':
      return t('statement.kind.credit');
    case 'adjustment':
      return t('statement.kind.adjustment');
    case 'void':
      return t('statement.kind.void');
  }
}

/** A line in words in the shown language: its kind, then its reference and note. */
function describeLine(
  t: I18n['t'],
  line: { kind: EntryKind; note: string; reference: string },
): string {
  const what = kindLabel(t, line.kind);
  const details = lineDetails(line);
  return details ? `${what}: ${details}` : what;
}

/**
 * The subject and message a reminder starts with, in the shown language; the owner can change
 * both before sending.
 */
function reminderText(i18n: I18n, statement: Statement): { subject: string; message: string } {
  const { t, format } = i18n;
  const { client, business, period, amountDue, closingBalance } = statement;
  const sender = business.name.trim();
  const from = format.day(period.from);
  const to = format.day(period.to);
  const overdue = BigInt(amountDue.overdue);
  const subject = sender
    ? t('statement.reminder.subject-from', { sender, from, to })
    : t('statement.reminder.subject', { from, to });
  const lines = [
    t('statement.reminder.greeting', { firstName: client.firstName, lastName: client.lastName }),
    '',
    t('statement.reminder.enclosed', { from, to }),
    t('statement.reminder.balance', {
      day: to,
      amount: format.money(BigInt(closingBalance), client.currency),
    }),
  ];
  if (overdue > 0n)
    lines.push(t('statement.reminder.overdue', { amount: format.money(overdue, client.currency) }));
  else if (amountDue.payBy && amountDue.payBy !== 'now')
    lines.push(t('statement.reminder.pay-by', { day: format.day(amountDue.payBy) }));
  if (business.paymentDetails && amountDue.payBy)
    lines.push('', t('statement.how-to-pay'), business.paymentDetails);
  lines.push('', t('statement.reminder.regards'));
  if (sender) lines.push(sender);
  return { subject, message: lines.join('\n') };
}

/** The period in the address (?from=&to=), so a reload, a bookmark and the downloads agree. */
function usePeriod(): [StatementPeriod, (period: StatementPeriod) => void] {
  const [search, setSearch] = useSearchParams();
  const today = localToday();
  const asked = statementQuerySchema.safeParse({
    from: search.get('from') ?? undefined,
    to: search.get('to') ?? undefined,
  });
  const resolved = asked.success ? resolvePeriod(asked.data, today) : null;
  const period = resolved?.ok ? resolved.period : defaultPeriod(today);
  return [period, (next) => setSearch({ from: next.from, to: next.to })];
}

function PeriodPicker({
  period,
  onChange,
}: {
  period: StatementPeriod;
  onChange: (period: StatementPeriod) => void;
}) {
  const { t } = useI18n();
  const { register, handleSubmit, formState } = useForm<StatementPeriodForm>({
    resolver: zodResolver(statementPeriodFormSchema(localToday)),
    defaultValues: period,
  });
  const { errors, isSubmitted } = formState;
  // The schema checked the period; the trimmed days it answers are the period itself.
  const submit = handleSubmit(({ from, to }) => onChange({ from, to }));
  return (
    <form
      className="row g-2 align-items-start mb-3 no-print"
      noValidate
      aria-label={t('statement.period.label')}
      onSubmit={(event) => void submit(event)}
    >
      <FormField
        className="col-6 col-sm-4"
        label={t('statement.period.from')}
        type="date"
        small
        registration={register('from')}
        error={errors.from}
        showError={isSubmitted}
      />
      <FormField
        className="col-6 col-sm-4"
        label={t('statement.period.to')}
        type="date"
        small
        registration={register('to')}
        error={errors.to}
        showError={isSubmitted}
      />
      <div className="col-12 col-sm-4">
        {/* Lines the button up with the inputs, whatever error text sits under them. */}
        <span className="form-label small mb-1 d-none d-sm-block invisible" aria-hidden="true">
          {t('statement.period.label')}
        </span>
        <button type="submit" className="btn btn-sm btn-primary">
          {t('statement.period.show')}
        </button>
      </div>
    </form>
  );
}

function mailtoLink(email: string, subject: string, message: string) {
  // encodeURIComponent, not URLSearchParams: mail programs read "+" as a plus, not a space.
  return `mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`;
}

/**
 * "Send statement": e-mails the PDF when the server can send mail; otherwise a mailto: link and
 * the text to copy. The subject and message start from what the statement says is overdue.
 */
function SendStatement({ statement, onClose }: { statement: Statement; onClose: () => void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const id = useId();
  const showFlash = useFlash();
  const send = useSendStatement(statement.client.id);
  const { register, handleSubmit, setError, getValues, control, formState } =
    useForm<StatementSendForm>({
      resolver: zodResolver(statementSendFormSchema),
      defaultValues: reminderText(i18n, statement),
    });
  const { errors, isSubmitted } = formState;
  // The mailto: link carries the text as it is typed.
  const [subject, message] = useWatch({ control, name: ['subject', 'message'] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const email = statement.client.email;

  const submit = handleSubmit(async (text) => {
    try {
      const sent = await send.mutateAsync({
        from: statement.period.from,
        to: statement.period.to,
        ...text,
      });
      showFlash(t('statement.send.sent', { email: sent.sentTo }), 'success');
      onClose();
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setServerError(failure.message);
      setServerFieldErrors(failure, ['subject', 'message'] as const, setError);
    }
  });

  if (!email) {
    return (
      <div className="alert alert-warning no-print" role="alert">
        {t('statement.send.no-address')}
      </div>
    );
  }

  const copy = async () => {
    const text = getValues();
    try {
      await navigator.clipboard.writeText(`${text.subject}\n\n${text.message}`);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className="card mb-3 no-print" aria-labelledby={`${id}-title`}>
      <form
        className="card-body"
        noValidate
        onSubmit={(event) => {
          setServerError(null);
          // Without a mail server there is nothing to send: Enter in the subject does nothing.
          if (statement.emailConfigured) void submit(event);
          else event.preventDefault();
        }}
      >
        <h2 id={`${id}-title`} className="h6">
          {t('statement.send.heading', { email })}
        </h2>
        {!statement.emailConfigured && (
          <p className="small text-body-secondary">{t('statement.send.no-mail-server')}</p>
        )}
        <FormField
          className="mb-2"
          label={t('statement.send.subject')}
          small
          registration={register('subject')}
          error={errors.subject}
          showError={isSubmitted}
        />
        <FormField
          className="mb-2"
          label={t('statement.send.message')}
          small
          rows={8}
          registration={register('message')}
          error={errors.message}
          showError={isSubmitted}
        />
        {serverError && (
          <div className="alert alert-danger py-2 small" role="alert">
            {i18n.message(serverError)}
          </div>
        )}
        <div className="d-flex flex-wrap gap-2 align-items-center">
          {statement.emailConfigured ? (
            <button
              type="submit"
              className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
              disabled={send.isPending}
            >
              <Send size={14} className="icon" aria-hidden />
              {send.isPending ? t('statement.send.sending') : t('statement.send.with-pdf')}
            </button>
          ) : (
            <a
              className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
              href={mailtoLink(email, subject, message)}
            >
              <Mail size={14} className="icon" aria-hidden />
              {t('statement.send.open-mail-program')}
            </a>
          )}
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
            onClick={() => void copy()}
          >
            <Copy size={14} className="icon" aria-hidden />
            {t('statement.send.copy')}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
            onClick={onClose}
          >
            <X size={14} className="icon" aria-hidden />
            {t('statement.send.cancel')}
          </button>
          {copied === 'yes' && (
            <span className="small text-credit" role="status">
              {t('statement.send.copied')}
            </span>
          )}
          {copied === 'failed' && (
            <span className="small text-owed" role="status">
              {t('statement.send.copy-failed')}
            </span>
          )}
        </div>
      </form>
    </section>
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

/**
 * The statement as the client reads it, on the page and on paper, with what the PDF shows:
 * the business and the client, the amount due with how to pay, the open items, the activity
 * of the period and the ageing. Figures carry no symbol (the currency is named once), credits
 * are in parentheses, zero is an empty cell; colour marks only what is overdue.
 */
function StatementBody({ statement }: { statement: Statement }) {
  const { t, format } = useI18n();
  const day = (isoDay: string) => format.day(isoDay);
  const { client, business, period, ageing, amountDue } = statement;
  const figure = (minor: number | string) =>
    formatFigure(BigInt(minor), client.currency, format.intlLocale);
  const money = (minor: number | string | bigint) => format.money(BigInt(minor), client.currency);
  const owed = BigInt(amountDue.amount);
  const overdue = BigInt(amountDue.overdue);
  const closing = BigInt(statement.closingBalance);
  return (
    <article className="card statement" aria-label={t('statement.label')}>
      <div className="card-body">
        <header className="d-flex flex-wrap justify-content-between gap-3 mb-3">
          {(business.name || business.address) && (
            <div>
              {business.name && <p className="h5 mb-1">{business.name}</p>}
              {business.address && (
                <p className="small mb-0 statement-address">{business.address}</p>
              )}
            </div>
          )}
          <div className="text-sm-end ms-sm-auto">
            <h1 className="h4 mb-1">{t('statement.heading')}</h1>
            <p className="mb-0 small">
              {t('statement.period.range', { from: day(period.from), to: day(period.to) })}
            </p>
            <p className="mb-0 small">
              {t('statement.in-currency', { currency: currencyLabel[client.currency] })}
            </p>
          </div>
        </header>
        <p className="mb-0 fw-semibold">{displayName(client)}</p>
        {client.email && <p className="mb-0 small">{client.email}</p>}
        {client.phone && <p className="small">{client.phone}</p>}

        <section
          className="statement-due border border-dark rounded-1 p-3 my-3 d-flex flex-wrap gap-3"
          aria-label={t('statement.amount-due')}
        >
          <div className="flex-grow-1">
            <p className="small text-body-secondary mb-0">{t('statement.amount-due')}</p>
            <p className="h3 mb-1 tabular" data-testid="amount-due">
              {money(owed)}
            </p>
            {owed === 0n ? (
              <p className="mb-0">
                {closing < 0n
                  ? t('statement.credit-yours', { amount: money(-closing) })
                  : t('statement.nothing-to-pay')}
              </p>
            ) : (
              <>
                {overdue > 0n && (
                  <p className="mb-0 text-owed" data-testid="overdue">
                    {t('statement.overdue', { amount: money(overdue) })}
                  </p>
                )}
                <p className="mb-0 fw-semibold" data-testid="pay-by">
                  {t('statement.pay-by', {
                    day:
                      amountDue.payBy === 'now'
                        ? t('statement.now')
                        : day(amountDue.payBy ?? period.to),
                  })}
                </p>
              </>
            )}
          </div>
          {business.paymentDetails && (
            <div className="flex-grow-1">
              <p className="small text-body-secondary mb-0">{t('statement.how-to-pay')}</p>
              <p className="mb-0 statement-address" data-testid="payment-details">
                {business.paymentDetails}
              </p>
            </div>
          )}
        </section>

        <h2 className="h6 mt-3">{t('statement.open-items')}</h2>
        {statement.openItems.length === 0 ? (
          <p className="text-body-secondary">{t('statement.nothing-unpaid')}</p>
        ) : (
          <ScrollRegion label={t('statement.open-items')}>
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
                      reference: (
                        <td key="reference">{item.reference || kindLabel(t, item.kind)}</td>
                      ),
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

        <h2 className="h6 mt-3">{t('statement.activity')}</h2>
        <ScrollRegion label={t('statement.entries')}>
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
                balance={figure(statement.openingBalance)}
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
                        {figure(line.balance)}
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
                balance={figure(statement.closingBalance)}
                testId="closing-balance"
              />
            </tbody>
          </table>
        </ScrollRegion>

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
        <p className="small text-body-secondary mt-3 mb-0">
          {t('statement.figures-note', { currency: currencyLabel[client.currency] })}
        </p>
      </div>
    </article>
  );
}

/** /client/:id/statement: the statement of a period, to print, download or send. */
export function ClientStatement({ id }: { id: string }) {
  const [period, setPeriod] = usePeriod();
  const statement = useStatement(id, period);
  const [sending, setSending] = useState(false);
  const { t } = useI18n();
  useDocumentTitle(
    statement.data
      ? t('statement.title.client', {
          firstName: statement.data.client.firstName,
          lastName: statement.data.client.lastName,
        })
      : t('statement.title'),
  );

  if (statement.isPending) return <PageLoading />;
  if (statement.isError) {
    if (statement.error instanceof ApiError && statement.error.status === 404)
      return <ClientNotFound />;
    return <PageLoadError error={statement.error} onRetry={() => void statement.refetch()} />;
  }
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-10">
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3 no-print">
          <Link to={`/client/${id}`} className="d-inline-flex align-items-center gap-1">
            <ArrowLeft size={16} className="icon" aria-hidden />
            {t('statement.back')}
          </Link>
          <div className="d-flex flex-wrap gap-2">
            <a
              className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
              href={statementFilePath(id, period, 'pdf')}
              download
            >
              <FileDown size={14} className="icon" aria-hidden />
              {t('statement.download-pdf')}
            </a>
            <a
              className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
              href={statementFilePath(id, period, 'csv')}
              download
            >
              <FileSpreadsheet size={14} className="icon" aria-hidden />
              {t('statement.download-csv')}
            </a>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
              onClick={() => window.print()}
            >
              <Printer size={14} className="icon" aria-hidden />
              {t('statement.print')}
            </button>
            <button
              type="button"
              className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
              aria-expanded={sending}
              onClick={() => setSending((open) => !open)}
            >
              <Send size={14} className="icon" aria-hidden />
              {t('statement.send.open')}
            </button>
          </div>
        </div>
        <PeriodPicker key={`${period.from}/${period.to}`} period={period} onChange={setPeriod} />
        {sending && <SendStatement statement={statement.data} onClose={() => setSending(false)} />}
        <StatementBody statement={statement.data} />
      </div>
    </div>
  );
}
