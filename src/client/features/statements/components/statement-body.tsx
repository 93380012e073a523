import { currencyLabel } from '../../../../shared/money.ts';
import { statementRecipient } from '../../../../shared/names.ts';
import { overdueSince, type Statement } from '../../../../shared/schemas/statement.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { Activity, AgeingTable, OpenItems } from './statement-tables.tsx';

/**
 * The statement as the client reads it, on the page and on paper, with what the PDF shows:
 * the business and the client, the amount due with how to pay, the open items, the activity
 * of the period and the ageing. Figures carry no symbol (the currency is named once), credits
 * are in parentheses, zero is an empty cell (but a balance of zero reads 0.00); colour marks
 * only what is overdue.
 */
export function StatementBody({ statement }: { statement: Statement }) {
  const { t, format } = useI18n();
  const day = (isoDay: string) => format.day(isoDay);
  const { client, business, period, amountDue } = statement;
  const recipient = statementRecipient(client);
  const money = (minor: number | string | bigint) => format.money(BigInt(minor), client.currency);
  const owed = BigInt(amountDue.amount);
  const overdue = BigInt(amountDue.overdue);
  const closing = BigInt(statement.closingBalance);
  const lateSince = overdueSince(statement.openItems);
  return (
    <article className="card statement" aria-label={t('statement.label')}>
      <div className="card-body">
        <header className="d-flex flex-wrap justify-content-between gap-3 mb-3">
          {(business.name || business.address || business.taxId) && (
            <div>
              {business.name && <p className="h5 mb-1">{business.name}</p>}
              {business.address && (
                <p className="small mb-0 statement-address">{business.address}</p>
              )}
              {business.taxId && (
                <p className="small mb-0" data-testid="tax-id">
                  {t('statement.tax-id', { taxId: business.taxId })}
                </p>
              )}
            </div>
          )}
          <div className="text-sm-end ms-sm-auto">
            <h1 className="h4 mb-1">{t('statement.heading')}</h1>
            <p className="mb-0 small" data-testid="statement-date">
              {t('statement.date', { day: day(statement.date) })}
            </p>
            <p className="mb-0 small" data-testid="statement-number">
              {t('statement.number', { number: statement.number })}
            </p>
            <p className="mb-0 small">
              {t('statement.period.range', { from: day(period.from), to: day(period.to) })}
            </p>
            <p className="mb-0 small">
              {t('statement.in-currency', { currency: currencyLabel[client.currency] })}
            </p>
          </div>
        </header>
        <div className="statement-to mb-3" data-testid="statement-to">
          <p className="mb-0 fw-semibold">{recipient.name}</p>
          {recipient.contact && <p className="mb-0">{recipient.contact}</p>}
          {recipient.address.map((line) => (
            <p key={line} className="mb-0 small">
              {line}
            </p>
          ))}
          {recipient.taxId && (
            <p className="mb-0 small">{t('statement.tax-id', { taxId: recipient.taxId })}</p>
          )}
          {client.email && <p className="mb-0 small">{client.email}</p>}
          {client.phone && <p className="mb-0 small">{client.phone}</p>}
        </div>

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
                  {lateSince
                    ? t('statement.overdue-since', { day: day(lateSince) })
                    : t('statement.pay-by', {
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

        <OpenItems statement={statement} />
        <Activity statement={statement} />
        <AgeingTable statement={statement} />
        <p className="small text-body-secondary mt-3 mb-0">
          {t('statement.figures-note', { currency: currencyLabel[client.currency] })}
        </p>
      </div>
    </article>
  );
}
