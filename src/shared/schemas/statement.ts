import { z } from 'zod/mini';
import { addDays, daysBetween, isCalendarDate } from '../dates.ts';
import { locales } from '../locales.ts';
import { currencyField, noControlCharacters } from './clients.ts';
import { multilineText } from './settings.ts';
import {
  entryKindLabels,
  entryKinds,
  paymentMethodInSentence,
  paymentMethods,
  type EntryKind,
  type PaymentMethod,
} from './ledger.ts';

/** A statement covers the last 90 days (today included) unless the owner picks a period. */
const defaultStatementDays = 90;
/** Two years at most: a longer statement is an export, not something to hand a client. */
const maxStatementDays = 731;

const dayField = z
  .string('Enter a date as YYYY-MM-DD.')
  .check(z.trim(), z.refine(isCalendarDate, 'Enter a date as YYYY-MM-DD.'));

/** GET /api/clients/:id/statement (and .csv, .pdf): the period, both days included. */
export const statementQuerySchema = z.object({
  from: z.optional(dayField),
  to: z.optional(dayField),
  // A download link cannot send the shown language as a header, so the PDF's link names it.
  lang: z.optional(z.enum(locales, 'Choose en, ko or ms.')),
});
export type StatementQuery = z.infer<typeof statementQuerySchema>;

export type StatementPeriod = { from: string; to: string };

/** The last 90 days, `today` included. */
export const defaultPeriod = (today: string): StatementPeriod => ({
  from: addDays(today, -(defaultStatementDays - 1)),
  to: today,
});

/**
 * The period a query asks for, with the defaults filled in: `to` is today, `from` the start of
 * the 90 days that end on `to`. Answers the problem with each field otherwise.
 */
export function resolvePeriod(
  query: StatementQuery,
  today: string,
): { ok: true; period: StatementPeriod } | { ok: false; fields: Record<string, string> } {
  const to = query.to ?? today;
  const from = query.from ?? defaultPeriod(to).from;
  if (from > to)
    return { ok: false, fields: { from: 'The start cannot be after the end of the period.' } };
  if (daysBetween(from, to) + 1 > maxStatementDays)
    return {
      ok: false,
      fields: { from: `Choose a period of at most ${maxStatementDays} days.` },
    };
  if (from < '1900-01-01') return { ok: false, fields: { from: 'Start in 1900 or later.' } };
  return { ok: true, period: { from, to } };
}

/** The statement page's period picker: both days as typed, checked as the server checks them. */
export const statementPeriodFormSchema = (today: () => string) =>
  z.object({ from: dayField, to: dayField }).check(
    z.superRefine((form, context) => {
      if (!isCalendarDate(form.from) || !isCalendarDate(form.to)) return;
      const resolved = resolvePeriod(form, today());
      if (resolved.ok) return;
      for (const [path, message] of Object.entries(resolved.fields))
        context.addIssue({ code: 'custom', path: [path], message, input: form });
    }),
  );
export type StatementPeriodForm = z.input<ReturnType<typeof statementPeriodFormSchema>>;

/**
 * What a statement line says after its kind: its reference (an invoice's number, a bank's
 * reference for a payment from a bank statement), then its note. Empty when it has neither.
 */
export const lineDetails = (line: { note: string; reference: string }) =>
  [line.reference, line.note].filter((part) => part !== '').join(' · ');

/**
 * Since when the client is late: the earliest due day of the open items past it, as an invoice
 * suite says it ("Overdue since 12 Oct 2026"); null when nothing is overdue.
 */
export function overdueSince(
  openItems: readonly { dueDate: string; daysOverdue: number }[],
): string | null {
  const late = openItems.filter((item) => item.daysOverdue > 0).map((item) => item.dueDate);
  return late.length === 0
    ? null
    : late.reduce((earliest, due) => (due < earliest ? due : earliest));
}

/** A line's kind, with a payment's method when it has one: "Payment (bank transfer)". */
export function kindWithMethod(
  line: { kind: EntryKind; method?: PaymentMethod | null },
  kind: (of: EntryKind) => string,
  method: (of: PaymentMethod) => string,
  withMethod: (values: { kind: string; method: string }) => string,
): string {
  return line.method
    ? withMethod({ kind: kind(line.kind), method: method(line.method) })
    : kind(line.kind);
}

/** A statement line in words: "Charge: INV-7 · March work", "Payment (cash)". */
export function describeLine(line: {
  kind: EntryKind;
  note: string;
  reference: string;
  method?: PaymentMethod | null;
}): string {
  const what = kindWithMethod(
    line,
    (kind) => entryKindLabels[kind],
    (method) => paymentMethodInSentence[method],
    ({ kind, method }) => `${kind} (${method})`,
  );
  const details = lineDetails(line);
  return details ? `${what}: ${details}` : what;
}

const statementBucketsSchema = z.object({
  current: z.string(),
  days1to30: z.string(),
  days31to60: z.string(),
  days61to90: z.string(),
  over90: z.string(),
});
export type StatementBuckets = z.infer<typeof statementBucketsSchema>;

export const statementBucketLabels: Record<keyof StatementBuckets, string> = {
  current: 'Current',
  days1to30: '1-30 days',
  days31to60: '31-60 days',
  days61to90: '61-90 days',
  over90: '90+ days',
};

const statementLineSchema = z.object({
  id: z.number(),
  date: z.string(),
  dueDate: z.nullable(z.string()),
  kind: z.enum(entryKinds),
  note: z.string(),
  /** The entry's reference: a payment from a bank statement has the bank's. */
  reference: z.string(),
  /** How a payment came; null on other lines and on a payment recorded before methods were kept. */
  method: z.nullable(z.enum(paymentMethods)),
  /** Minor units, signed by the effect on the balance. */
  amount: z.number(),
  /** What the entry is, in words: its kind (with a payment's method), reference and note. */
  description: z.string(),
  /** The balance after this entry, as decimal minor units. */
  balance: z.string(),
});

/**
 * An amount still (partly) unpaid at the end of the period: a charge, an opening balance or an
 * adjustment that added to what is owed. Its reference is the entry's own, or its note when it
 * has none.
 */
const statementOpenItemSchema = z.object({
  id: z.number(),
  kind: z.enum(entryKinds),
  date: z.string(),
  reference: z.string(),
  /** The day it falls due: its due date, or its own day when it has none. */
  dueDate: z.string(),
  /** Minor units. */
  amount: z.number(),
  /** What payments and credits (settling the oldest first) have paid of it, in minor units. */
  paid: z.number(),
  remaining: z.number(),
  /** Days past its due day on the statement's last day; 0 when not yet due. */
  daysOverdue: z.number(),
});

/**
 * A client's statement for a period: amounts in minor units of the client's currency; balances
 * and the ageing as decimal text of minor units (sums can pass 2^53).
 */
export const statementSchema = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  client: z.object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    currency: currencyField,
    /** A business client's company, billing address and tax id ('' when none); never its notes. */
    company: z.string(),
    addressLine1: z.string(),
    addressLine2: z.string(),
    city: z.string(),
    postcode: z.string(),
    country: z.string(),
    taxId: z.string(),
  }),
  business: z.object({
    name: z.string(),
    address: z.string(),
    paymentDetails: z.string(),
    /** '' when the owner has given none. */
    taxId: z.string(),
  }),
  /**
   * The statement's date: the last day it covers (`period.to`), the day its balances and ageing
   * are as of (docs/decisions/039-statement-date-and-number.md).
   */
  date: z.string(),
  /**
   * Its number: the client's code and the statement's date ("K7M2Q9-20250531"), the same every
   * time that statement is made, stored nowhere (decision 039).
   */
  number: z.string(),
  /**
   * The balance brought forward to the start of `from`: every entry dated before it. An entry
   * voided by the end of the period and its void are left out of the statement (they add up to
   * nothing), here and in `lines`.
   */
  openingBalance: z.string(),
  /** The entries of the period, oldest first, with their running balance; voided pairs left out. */
  lines: z.array(statementLineSchema),
  /** The balance at the end of `to`. */
  closingBalance: z.string(),
  /**
   * What the client is asked to pay: the closing balance when above 0 (else 0), the part of it
   * overdue, and when to pay: "now" when something is overdue, else the earliest due day of what
   * is open (YYYY-MM-DD), null when nothing is owed.
   */
  amountDue: z.object({
    amount: z.string(),
    overdue: z.string(),
    payBy: z.nullable(z.string()),
  }),
  /** Every amount still unpaid at the end of `to`, oldest first: what the amount due is for. */
  openItems: z.array(statementOpenItemSchema),
  /**
   * What was unpaid at the end of `to`, by how long past due on that day (payments and credits
   * settle the oldest first); the buckets add up to the closing balance when it is above 0.
   */
  ageing: z.object({
    asOf: z.string(),
    owed: z.string(),
    /** Everything past due: all buckets but Current. */
    overdue: z.string(),
    buckets: statementBucketsSchema,
  }),
  /** Whether this server can e-mail the statement (SMTP is set up). */
  emailConfigured: z.boolean(),
});
export type Statement = z.infer<typeof statementSchema>;

const statementSubjectMaxLength = 200;
const statementMessageMaxLength = 5000;

const subjectField = z
  .string('Enter a subject.')
  .check(
    z.trim(),
    z.minLength(1, 'Enter a subject.'),
    noControlCharacters,
    z.maxLength(statementSubjectMaxLength, `Use at most ${statementSubjectMaxLength} characters.`),
  );

const messageField = z
  .string('Enter a message.')
  .check(
    z.trim(),
    z.minLength(1, 'Enter a message.'),
    multilineText,
    z.maxLength(statementMessageMaxLength, `Use at most ${statementMessageMaxLength} characters.`),
  );

/** POST /api/clients/:id/statement/send */
export const statementSendSchema = z.strictObject({
  from: z.optional(dayField),
  to: z.optional(dayField),
  subject: subjectField,
  message: messageField,
});
export type StatementSend = z.infer<typeof statementSendSchema>;

/** The statement page's "Send statement" panel: the text as typed, checked as the server checks it. */
export const statementSendFormSchema = z.object({ subject: subjectField, message: messageField });
export type StatementSendForm = z.input<typeof statementSendFormSchema>;

export const statementSentSchema = z.object({ sentTo: z.string() });
