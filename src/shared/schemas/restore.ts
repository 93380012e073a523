import { z } from 'zod/mini';
import { bookRoleSchema } from './books.ts';
import {
  balanceMinorField,
  businessFieldMaxLength,
  clientSnapshotSchema,
  currencyField,
  noControlCharacters,
  notesText,
} from './clients.ts';
import { isCalendarDate } from '../dates.ts';
import { bankLabelMaxLength, bankMappingSchema, learnedFroms } from './bank.ts';
import { bankLayoutKeyPattern } from '../bank-layout.ts';
import { clientLanguageSchema } from './client-links.ts';
import { eventActions } from './events.ts';
import {
  entryDetailSchema,
  entryKinds,
  entryNoteMaxLength,
  entryReferenceMaxLength,
  paymentMethodField,
} from './ledger.ts';
import { reminderPlanSchema, reminderStepSchema } from './reminders.ts';
import {
  businessSchema,
  exchangeRateSchema,
  preferencesSchema,
  rateCurrencies,
} from './settings.ts';

// The owner's JSON export ("Download all my data") as the restore reads it back. Version 1 had
// no ledger entries; version 2 added them; version 3 added each entry's reference; version 4 added
// each client's language and reminders switch, and the reminder plan; version 5 added the
// payments from bank statements (each entry's bank line, the imports, their lines, the learned
// payers and the remembered CSV layouts); version 6 added each client's company, billing address,
// tax id and private notes, and each payment's method; version 7 added the charges payments
// and credits name as the ones they pay (`paymentTargets`); version 8 is a book's (issue 58):
// its name and members (`book`, for the reader: people are not restored, they are invited), who
// made each change of the history (`by`, an e-mail) and the changes of the members; version 9 the
// day the book is closed up to (`settings.lockDate`, issue 59), and its changes. The checks are about the
// shape and sense of the data, not today's form rules: what was saved once comes back even if a
// rule has tightened since.

export const exportFormat = 'balance-export';
/** The newest export version this Balance writes and reads. */
export const exportVersion = 9;

const moment = z.iso.datetime({ offset: true, error: 'Use a date and time (ISO 8601).' });
const day = z.string().check(z.refine(isCalendarDate, 'Use a date as YYYY-MM-DD.'));
const text = (max: number) =>
  z.string().check(z.maxLength(max, `Use at most ${max} characters.`), noControlCharacters);
const id = z
  .string()
  .check(
    z.minLength(1, 'This cannot be empty.'),
    z.maxLength(64, 'must be at most 64 characters'),
    noControlCharacters,
  );
const count = z.int('Use a whole number.').check(z.nonnegative('This cannot be negative.'));

const exportedClientSchema = z.object({
  id,
  firstName: text(100),
  lastName: text(100),
  email: text(254),
  phone: text(30),
  balance: balanceMinorField,
  currency: currencyField,
  version: z.int('Use a whole number.').check(z.positive('Use 1 or more.')),
  createdAt: moment,
  updatedAt: moment,
  /** The client's own language; null (or left out, before version 4): the owner's. */
  language: z.optional(clientLanguageSchema),
  /** The client's reminders switch; left out (before version 4): on. */
  reminders: z.optional(z.boolean('Use true or false.')),
  // Version 6 on: a business client's details; each left out (before 6, or none): ''.
  company: z.optional(text(businessFieldMaxLength.company)),
  addressLine1: z.optional(text(businessFieldMaxLength.addressLine1)),
  addressLine2: z.optional(text(businessFieldMaxLength.addressLine2)),
  city: z.optional(text(businessFieldMaxLength.city)),
  postcode: z.optional(text(businessFieldMaxLength.postcode)),
  country: z.optional(text(businessFieldMaxLength.country)),
  taxId: z.optional(text(businessFieldMaxLength.taxId)),
  notes: z.optional(
    z
      .string()
      .check(
        z.maxLength(
          businessFieldMaxLength.notes,
          `Use at most ${businessFieldMaxLength.notes} characters.`,
        ),
        notesText,
      ),
  ),
});

const exportedEntrySchema = z.object({
  id: z.int('Use a whole number.').check(z.positive('Use 1 or more.')),
  clientId: id,
  kind: z.enum(entryKinds, `Use one of ${entryKinds.join(', ')}.`),
  amount: balanceMinorField,
  currency: currencyField,
  date: day,
  dueDate: z.nullable(day),
  /** Left out by files before version 3. */
  reference: z.optional(text(entryReferenceMaxLength)),
  note: text(entryNoteMaxLength),
  voidOf: z.nullable(z.int('Use a whole number.')),
  enteredAt: moment,
  /** A payment from a bank statement: its line's id. Left out by other entries, and before 5. */
  bankLineId: z.optional(z.nullable(id)),
  // Version 6 on: a payment's method. Left out by other entries, and by older files, whose
  // payments come back without one ("not recorded"), but a bank statement's as a bank transfer.
  method: z.optional(z.nullable(paymentMethodField)),
  /** Version 9 on, only on a correction: the entry of the same client it puts right. */
  corrects: z.optional(z.nullable(z.int('Use a whole number.'))),
});

/** Part of a payment or credit put on a charge it names, by the entries' ids (version 7 on). */
const exportedPaymentTargetSchema = z.object({
  paymentId: z.int('Use a whole number.'),
  chargeId: z.int('Use a whole number.'),
  amount: z.int('Use a whole number.').check(z.positive('Use 1 or more.')),
});

/** A confirmed bank import (version 5 on). */
const exportedBankBatchSchema = z.object({
  id,
  accountLabel: text(bankLabelMaxLength),
  currency: currencyField,
  createdAt: moment,
  undoneAt: z.nullable(moment),
});

/** A statement line recorded by an import: it is never recorded again (version 5 on). */
const exportedBankLineSchema = z.object({ lineId: id, batchId: id, createdAt: moment });

/** A payer the owner confirmed; no client: a text confirmed for two (version 5 on). */
const exportedPayerRuleSchema = z.object({
  payerKey: text(1000),
  clientId: z.nullable(id),
  updatedAt: moment,
  /** Where it was learned (issue 53): left out for a rule learned before, or by older files. */
  batchId: z.optional(id),
  line: z.optional(z.nullable(z.int().check(z.minimum(1)))),
  learnedFrom: z.optional(z.nullable(z.enum(learnedFroms))),
});

/** A CSV layout's remembered mapping, by the key of its header row (version 5 on). */
const exportedBankLayoutSchema = z.object({
  key: z.string().check(z.regex(bankLayoutKeyPattern, 'This layout key is invalid.')),
  mapping: bankMappingSchema,
  updatedAt: moment,
});

/** What a `reminder_sent` or `reminder_failed` event says was sent. */
const exportedReminderDetailSchema = z.object({
  step: reminderStepSchema,
  charges: z.array(
    z.object({
      entryId: z.int('Use a whole number.'),
      step: reminderStepSchema,
      reference: text(entryReferenceMaxLength),
    }),
  ),
  sentTo: text(254),
  by: z.enum(['mail', 'hand'], 'Use mail or hand.'),
  // A mail server's answer, as it came: several lines at times.
  error: z.optional(z.string().check(z.maxLength(5000, 'Use at most 5000 characters.'))),
});

const exportedEventSchema = z.object({
  clientId: z.nullable(id),
  action: z.enum(eventActions, `Use one of ${eventActions.join(', ')}.`),
  at: moment,
  version: count,
  before: z.nullable(clientSnapshotSchema),
  after: z.nullable(clientSnapshotSchema),
  /** Version 1 files have no ledger, so no entry on any event. */
  entry: z.optional(z.nullable(entryDetailSchema)),
  /** A reminder event's detail (written by version 3 files made since reminders exist, too). */
  reminder: z.optional(exportedReminderDetailSchema),
  /** Version 8 on: a change of the book's members, and who made each change. */
  member: z.optional(
    z.object({
      change: z.enum(['invited', 'invitation_revoked', 'joined', 'role_changed', 'removed']),
      email: text(254),
      role: bookRoleSchema,
    }),
  ),
  closing: z.optional(z.object({ lockDate: z.nullable(day), previous: z.nullable(day) })),
  by: z.optional(z.nullable(text(254))),
});

export const exportFileSchema = z.object({
  format: z.literal(exportFormat, `Use "${exportFormat}".`),
  version: z.int('Use a whole number.').check(z.minimum(1, 'Use 1 or more.')),
  exportedAt: z.optional(moment),
  account: z.optional(z.object({ email: z.string() })),
  /** Version 8 on: the book's name and who kept it; read, never restored. */
  book: z.optional(
    z.object({
      name: z.string(),
      members: z.array(z.object({ email: z.string(), role: z.string() })),
    }),
  ),
  settings: z.object({
    preferences: preferencesSchema,
    rates: z.array(exchangeRateSchema).check(
      z.maxLength(rateCurrencies.length, 'Give at most one rate per currency.'),
      z.refine(
        (rates) => new Set(rates.map((rate) => rate.currency)).size === rates.length,
        'Give at most one rate per currency.',
      ),
    ),
    /** Left out by files made before statements had the owner's business on them. */
    business: z.optional(businessSchema),
    /** Left out before version 4. Restored switched off: see `remindersTurnedOff`. */
    reminderPlan: z.optional(reminderPlanSchema),
    /** Version 9 on: the day the book was closed up to (issue 59); null: nothing closed. */
    lockDate: z.optional(z.nullable(day)),
  }),
  clients: z.array(exportedClientSchema),
  /** Left out by version 1 only. */
  entries: z.optional(z.array(exportedEntrySchema)),
  /** Left out before version 7. */
  paymentTargets: z.optional(z.array(exportedPaymentTargetSchema)),
  history: z.array(exportedEventSchema),
  /** Left out before version 5. */
  bankBatches: z.optional(z.array(exportedBankBatchSchema)),
  bankLines: z.optional(z.array(exportedBankLineSchema)),
  bankPayerRules: z.optional(z.array(exportedPayerRuleSchema)),
  bankLayouts: z.optional(z.array(exportedBankLayoutSchema)),
});
export type ExportFile = z.infer<typeof exportFileSchema>;

/** POST /api/restore?dryRun=true previews; without it, restores. */
export const restoreQuerySchema = z.object({
  dryRun: z.optional(z.enum(['true', 'false'])),
});

/** What a restore brings back (or, on a preview, would). */
export const restoreSummarySchema = z.object({
  /** The export version of the file read. */
  version: z.number(),
  exportedAt: z.nullable(z.string()),
  /** The e-mail of the account the file was exported from. */
  exportedFrom: z.nullable(z.string()),
  clients: z.number(),
  entries: z.number(),
  /** Opening balances made from a version-1 file's balances, which had no ledger. */
  openingsFromBalances: z.number(),
  history: z.number(),
  rates: z.number(),
  /** Clients whose id is taken on this instance (by another account), restored under a new one. */
  renumbered: z.number(),
  /**
   * The file's reminder plan was on: it is restored off, since which reminders were already sent
   * is not in the file, and the owner turns it on again.
   */
  remindersTurnedOff: z.boolean(),
  restored: z.boolean(),
});
export type RestoreSummary = z.infer<typeof restoreSummarySchema>;

/** What POST /api/restore takes: an export file as read from disk, read and checked on the server. */
export const restoreBodySchema = z.unknown();
