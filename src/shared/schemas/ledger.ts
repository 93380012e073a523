import { z } from 'zod/mini';
import { isCalendarDate } from '../dates.ts';
import { maxAmountMinor, parseAmount, type Currency } from '../money.ts';
import {
  clientSchema,
  currencyField,
  dateField,
  noControlCharacters,
  referenceField,
} from './clients.ts';

export { entryReferenceMaxLength } from './clients.ts';

/**
 * Why a client owes what they owe. The balance is the sum of the entries' amounts; each amount is
 * signed by its effect on the balance: a charge adds, a payment or a credit takes away, an
 * opening balance or an adjustment can go either way, a void reverses the entry it names.
 */
export const entryKinds = ['opening', 'charge', 'payment', 'credit', 'adjustment', 'void'] as const;
export type EntryKind = (typeof entryKinds)[number];

/** What the owner records by hand; the other kinds follow from the client form and voids. */
const recordedKinds = ['charge', 'payment', 'credit'] as const;
export type RecordedKind = (typeof recordedKinds)[number];

export const entryKindLabels: Record<EntryKind, string> = {
  opening: 'Opening balance',
  charge: 'Charge',
  payment: 'Payment',
  credit: 'Credit',
  adjustment: 'Adjustment',
  void: 'Void',
};

/**
 * How a payment came (issue 56). Only a payment has one; a payment recorded before methods were
 * kept (migration 0041) has none: null, "not recorded".
 */
export const paymentMethods = ['cash', 'bank_transfer', 'card', 'cheque', 'other'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];

/**
 * The method the entry form chooses to start with: a bank transfer, how a business is paid nearly
 * always (and how the bank import records every payment). The API records none when none is sent.
 */
export const defaultPaymentMethod: PaymentMethod = 'bank_transfer';

export const paymentMethodLabels: Record<PaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  card: 'Card',
  cheque: 'Cheque',
  other: 'Other',
};

/** The same inside a sentence: "Payment (bank transfer)". */
export const paymentMethodInSentence: Record<PaymentMethod, string> = {
  bank_transfer: 'bank transfer',
  cash: 'cash',
  card: 'card',
  cheque: 'cheque',
  other: 'other method',
};

export const paymentMethodField = z.enum(
  paymentMethods,
  `Use one of ${paymentMethods.join(', ')}.`,
);

/** The sign each recorded kind gives its (positive) amount. */
export const recordedSign: Record<RecordedKind, 1 | -1> = { charge: 1, payment: -1, credit: -1 };

export const entryNoteMaxLength = 200;

const noteField = z
  .string()
  .check(
    z.trim(),
    noControlCharacters,
    z.maxLength(entryNoteMaxLength, `Use at most ${entryNoteMaxLength} characters.`),
  );

/** The most charges one payment may name. */
export const paysMax = 20;

/** POST /api/clients/:id/entries: a positive amount in minor units of the client's currency. */
export const entryInputSchema = z
  .strictObject({
    kind: z.enum(recordedKinds, 'Choose charge, payment or credit.'),
    amount: z
      .int('Send a whole number of minor units.')
      .check(
        z.positive('Enter an amount above 0.'),
        z.maximum(maxAmountMinor, 'This amount is too large.'),
      ),
    /** The day it happened; today when left out. */
    date: z.optional(dateField),
    /** Only a charge has one: when it is to be paid. */
    dueDate: z.optional(z.nullable(dateField)),
    note: z.optional(noteField),
    /** An invoice number or the like. */
    reference: z.optional(referenceField),
    /** Only a payment has one; a payment sent without one has none recorded (`null`). */
    method: z.optional(paymentMethodField),
    /**
     * The id of an entry of the same client this one corrects: how an entry of a closed period is
     * put right, in the open one, since it cannot be voided (issue 59).
     */
    corrects: z.optional(
      z.int('Send the id of an entry.').check(z.positive('Send the id of an entry.')),
    ),
    /**
     * A payment's or credit's: the ids of the open charges it pays, in the order they are paid
     * (what is left settles the oldest first). Left out: the oldest first, as always.
     */
    pays: z.optional(
      z
        .array(z.int('Send the ids of charges.').check(z.positive('Send the ids of charges.')))
        .check(z.maxLength(paysMax, `Name at most ${paysMax} charges.`)),
    ),
  })
  .check(
    z.superRefine((entry, context) => {
      if (entry.pays !== undefined && entry.kind === 'charge')
        context.addIssue({
          code: 'custom',
          path: ['pays'],
          message: 'Only a payment or a credit pays charges.',
          input: entry.pays,
        });
      else if (entry.pays && new Set(entry.pays).size !== entry.pays.length)
        context.addIssue({
          code: 'custom',
          path: ['pays'],
          message: 'Name each charge once.',
          input: entry.pays,
        });
      if (entry.method !== undefined && entry.kind !== 'payment')
        context.addIssue({
          code: 'custom',
          path: ['method'],
          message: 'Only a payment has a method.',
          input: entry.method,
        });
      if (!entry.dueDate) return;
      if (entry.kind !== 'charge')
        context.addIssue({
          code: 'custom',
          path: ['dueDate'],
          message: 'Only a charge has a due date.',
          input: entry.dueDate,
        });
      else if (entry.date && entry.dueDate < entry.date)
        context.addIssue({
          code: 'custom',
          path: ['dueDate'],
          message: 'The due date cannot be before the date of the charge.',
          input: entry.dueDate,
        });
    }),
  );
export type EntryInput = z.infer<typeof entryInputSchema>;

/** POST /api/clients/:id/entries/:entryId/void */
export const voidInputSchema = z.strictObject({
  reason: z
    .string('Enter a reason.')
    .check(
      z.trim(),
      z.minLength(1, 'Enter a reason.'),
      noControlCharacters,
      z.maxLength(entryNoteMaxLength, `Use at most ${entryNoteMaxLength} characters.`),
    ),
});
export type VoidInput = z.infer<typeof voidInputSchema>;

export const entryParams = z.object({ id: z.string(), entryId: z.string() });

const entrySchema = z.object({
  id: z.number(),
  kind: z.enum(entryKinds),
  /** Minor units, signed by the effect on the balance. */
  amount: z.number(),
  currency: currencyField,
  date: z.string(),
  dueDate: z.nullable(z.string()),
  note: z.string(),
  reference: z.string(),
  /** On a void: the entry it reverses. */
  voidOf: z.nullable(z.number()),
  /** On a voided entry: the void that reverses it. */
  voidedBy: z.nullable(z.number()),
  /** The e-mail of whoever entered it; null once that account is gone. */
  enteredBy: z.nullable(z.string()),
  enteredAt: z.string(),
  /**
   * The balance after this entry in the ledger's order (by day, then as entered), as decimal
   * minor units (it can pass 2^53); null on a voided entry and on its void, which move nothing.
   */
  runningBalance: z.nullable(z.string()),
  /**
   * A payment recorded from a bank statement: the account it came in on, as the owner named it
   * at the import (null once that import was undone). Null for any other entry.
   */
  bank: z.nullable(z.object({ account: z.nullable(z.string()) })),
  /** How a payment came; null for any other entry, and for a payment recorded before 0041. */
  method: z.nullable(z.enum(paymentMethods)),
  /** A payment's or credit's: the charges it names as the ones it pays (none: oldest first). */
  pays: z.array(
    z.object({ id: z.number(), date: z.string(), amount: z.number(), label: z.string() }),
  ),
  /** An amount owed's: the payments and credits (not voided) that name it, with their amounts. */
  paidBy: z.array(z.object({ id: z.number(), date: z.string(), amount: z.number() })),
  /** What of it is still unpaid (an amount owed); 0 on anything else. */
  open: z.number(),
  /** The entry this one corrects (issue 59), and on a corrected entry the newest correction. */
  corrects: z.nullable(z.number()),
  correctedBy: z.nullable(z.number()),
});
export type Entry = z.infer<typeof entrySchema>;

const entryPageSizeMax = 500;
export const entryPageSizeDefault = 100;

/**
 * GET /api/clients/:id/entries: the newest page without a cursor, the page before it with the
 * `nextCursor` it answered; `kind` keeps one kind of entry (the running balance still counts all).
 */
export const entryListQuerySchema = z.object({
  cursor: z.optional(z.string().check(z.maxLength(200, 'This value is invalid.'))),
  limit: z.optional(
    z.string().check(
      z.regex(/^([1-9]\d{0,2})$/, `Use a whole number from 1 to ${entryPageSizeMax}.`),
      z.refine(
        (text) => Number(text) <= entryPageSizeMax,
        `Use a whole number from 1 to ${entryPageSizeMax}.`,
      ),
    ),
  ),
  kind: z.optional(z.enum(entryKinds, `Use one of ${entryKinds.join(', ')}.`)),
});

/** A page of a client's ledger, oldest first; pages go from the newest back to the oldest. */
export const entryListSchema = z.object({
  entries: z.array(entrySchema),
  /** Where the page of older entries starts; null when this page holds the oldest. */
  nextCursor: z.nullable(z.string()),
});

/** An entry as a change recorded it: what the history and the answer to a new entry carry. */
export const entryDetailSchema = z.object({
  entryId: z.number(),
  kind: z.enum(entryKinds),
  /** Minor units, signed by the effect on the balance. */
  amount: z.number(),
  currency: currencyField,
  date: z.string(),
  note: z.string(),
  voidOf: z.nullable(z.number()),
  /** Left out by changes recorded before references and due dates were kept in the history. */
  dueDate: z.optional(z.nullable(z.string())),
  reference: z.optional(z.string()),
  /** A payment's method; left out by changes recorded before methods were kept (0041). */
  method: z.optional(z.nullable(z.enum(paymentMethods))),
});
export type EntryDetail = z.infer<typeof entryDetailSchema>;

/** POST /api/clients/:id/entries and .../void: the new entry and the client it changed. */
export const recordedEntrySchema = z.object({ client: clientSchema, entry: entryDetailSchema });
export type RecordedEntry = z.infer<typeof recordedEntrySchema>;

/**
 * The small payment, charge and credit forms, as typed: the amount in the client's currency,
 * the day (not after today on this device), an optional due date and a note.
 */
export const entryFormSchema = (currency: Currency, today: () => string) =>
  z
    .object({
      amount: z.string(),
      date: dateField,
      dueDate: z.string().check(z.trim()),
      note: noteField,
      reference: referenceField,
      /** Only the payment form shows it. */
      method: z.enum(paymentMethods, 'Choose how it was paid.'),
    })
    .check(
      z.superRefine((form, context) => {
        const issue = (path: string, message: string, input: string) =>
          context.addIssue({ code: 'custom', path: [path], message, input });
        const amount = parseEntryAmount(form.amount, currency);
        if (!amount.ok) issue('amount', amount.error, form.amount);
        if (form.date > today()) issue('date', 'The date cannot be in the future.', form.date);
        if (form.dueDate !== '') {
          if (!isCalendarDate(form.dueDate))
            issue('dueDate', 'Enter a date as YYYY-MM-DD.', form.dueDate);
          else if (form.dueDate < form.date)
            issue('dueDate', 'The due date cannot be before the date of the charge.', form.dueDate);
        }
      }),
    );
export type EntryForm = z.input<ReturnType<typeof entryFormSchema>>;

/** The form's amount in minor units: a positive amount in the currency's decimals. */
export function parseEntryAmount(
  text: string,
  currency: Currency,
): { ok: true; minor: number } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: false, error: 'Enter an amount.' };
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) return parsed;
  if (parsed.minor <= 0) return { ok: false, error: 'Enter an amount above 0.' };
  return parsed;
}

/**
 * A client's currency can change only while its ledger holds nothing but opening balances
 * (and their voids): once a charge, payment, credit or adjustment is recorded, its amount means
 * something only in that currency.
 */
export function currencyCanChange(
  entries: readonly { id: number; kind: EntryKind; voidOf: number | null }[],
): boolean {
  const openings = new Set(entries.filter((entry) => entry.kind === 'opening').map((e) => e.id));
  return entries.every(
    (entry) =>
      entry.kind === 'opening' ||
      (entry.kind === 'void' && entry.voidOf !== null && openings.has(entry.voidOf)),
  );
}
