import type { EntryKind, PaymentMethod } from '../../../../shared/schemas/ledger.ts';
import {
  kindWithMethod,
  lineDetails,
  type Statement,
} from '../../../../shared/schemas/statement.ts';
import type { useI18n } from '../../../i18n/use-i18n.ts';

type I18n = ReturnType<typeof useI18n>;

export function kindLabel(t: I18n['t'], kind: EntryKind): string {
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

function methodInSentence(t: I18n['t'], method: PaymentMethod): string {
  switch (method) {
    case 'cash':
      return t('statement.method.cash');
    case 'bank_transfer':
      return t('statement.method.bank_transfer');
    case 'card':
      return t('statement.method.card');
    case 'cheque':
      return t('statement.method.cheque');
    case 'other':
      return t('statement.method.other');
  }
}

/**
 * A line in words in the shown language: its kind (a payment's with its method, "Payment (cash)"),
 * then its reference and note.
 */
export function describeLine(
  t: I18n['t'],
  line: { kind: EntryKind; note: string; reference: string; method: PaymentMethod | null },
): string {
  const what = kindWithMethod(
    line,
    (kind) => kindLabel(t, kind),
    (method) => methodInSentence(t, method),
    (values) => t('statement.kind-with-method', values),
  );
  const details = lineDetails(line);
  return details ? `${what}: ${details}` : what;
}

/**
 * The subject and message a reminder starts with, in the shown language; the owner can change
 * both before sending.
 */
export function reminderText(
  i18n: I18n,
  statement: Statement,
): { subject: string; message: string } {
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
