import { z } from 'zod/mini';
import { bankLayoutKeyPattern } from '../bank-layout.ts';
import { maxAmountMinor } from '../money.ts';
import { currencyField, dateField } from './clients.ts';
import { paysMax } from './ledger.ts';

export { entryReferenceMaxLength } from './clients.ts';

/** How a bank's CSV file is laid out: columns by their place (0 is the first), and its habits. */
export const bankMappingSchema = z.object({
  date: z.int().check(z.minimum(0), z.maximum(99)),
  description: z.int().check(z.minimum(0), z.maximum(99)),
  /** One signed column, or `debit` and `credit` columns. */
  amount: z.optional(z.int().check(z.minimum(0), z.maximum(99))),
  debit: z.optional(z.int().check(z.minimum(0), z.maximum(99))),
  credit: z.optional(z.int().check(z.minimum(0), z.maximum(99))),
  reference: z.optional(z.int().check(z.minimum(0), z.maximum(99))),
  balance: z.optional(z.int().check(z.minimum(0), z.maximum(99))),
  /** The payer's (or payee's) name when the bank gives it a column of its own (보낸분, 내용). */
  counterparty: z.optional(z.int().check(z.minimum(0), z.maximum(99))),
  /** Rows before the first payment (a header line, a bank's title lines). */
  skipRows: z._default(z.int().check(z.minimum(0), z.maximum(50)), 1),
  dateOrder: z.enum(['YMD', 'DMY', 'MDY'], 'Choose YMD, DMY or MDY.'),
  decimal: z.enum(['.', ','], 'Choose "." or ",".'),
  encoding: z._default(z.enum(['utf-8', 'euc-kr'], 'Choose utf-8 or euc-kr.'), 'utf-8'),
});
export type BankMapping = z.infer<typeof bankMappingSchema>;

export const bankLabelMaxLength = 60;
const accountLabel = z
  .string()
  .check(z.trim(), z.minLength(1, 'Name the bank account.'), z.maxLength(bankLabelMaxLength));

/** The file's bytes as base64: a statement is at most 4 MiB. */
export const bankFileMaxBytes = 4 * 1024 * 1024;
/** The lines (transactions) a statement may have. */
export const bankStatementMaxLines = 20_000;

/**
 * CSV or an Excel workbook (XLSX, its first sheet) with a column mapping, OFX (QFX too; 1.x SGML
 * or 2.x XML), or ISO 20022 camt.053 XML.
 */
const bankFormats = ['csv', 'xlsx', 'ofx', 'camt053'] as const;
export type BankFormat = (typeof bankFormats)[number];
/** The formats read through a column mapping. */
export const mappedFormat = (format: BankFormat | undefined) =>
  format === 'csv' || format === 'xlsx';

const mappingForCsv = z.superRefine<{ format: BankFormat; mapping?: BankMapping | undefined }>(
  (body, context) => {
    if (mappedFormat(body.format) && body.mapping === undefined)
      context.addIssue({
        code: 'custom',
        path: ['mapping'],
        message: "Choose the CSV file's columns.",
        input: body.mapping,
      });
  },
);

export const bankPreviewBodySchema = z
  .strictObject({
    accountLabel,
    currency: currencyField,
    format: z._default(z.enum(bankFormats, 'Choose csv, xlsx, ofx or camt053.'), 'csv'),
    /** Only for `csv`; the other formats say where each field is. */
    mapping: z.optional(bankMappingSchema),
    file: z
      .string()
      .check(
        z.maxLength(Math.ceil(bankFileMaxBytes / 3) * 4, 'The file is too large.'),
        z.regex(/^[A-Za-z0-9+/]*={0,2}$/, 'Send the file as base64.'),
      ),
  })
  .check(mappingForCsv);

const columnChoice = z.nullable(z.int().check(z.minimum(0), z.maximum(99)));

/**
 * Step 1 of a bank import as the page holds it: the account, the file chosen (only its format is
 * checked here) and, for a CSV file, its columns (null when not chosen) and habits.
 */
export const bankUploadFormSchema = z
  .object({
    accountLabel,
    currency: currencyField,
    file: z.nullable(z.object({ format: z.enum(bankFormats) })),
    columns: z.object({
      date: columnChoice,
      description: columnChoice,
      amount: columnChoice,
      credit: columnChoice,
      debit: columnChoice,
      reference: columnChoice,
      balance: columnChoice,
      counterparty: columnChoice,
    }),
    skipRows: bankMappingSchema.shape.skipRows,
    dateOrder: bankMappingSchema.shape.dateOrder,
    decimal: bankMappingSchema.shape.decimal,
    encoding: bankMappingSchema.shape.encoding,
    /** When the columns were filled in from a layout remembered (its last use). */
    rememberedAt: z.nullable(z.string()),
  })
  .check(
    z.superRefine((form, context) => {
      if (!mappedFormat(form.file?.format)) return;
      const { date, description, amount, credit } = form.columns;
      const issue = (message: string) =>
        context.addIssue({ code: 'custom', path: ['columns'], message, input: form.columns });
      if (date === null || description === null)
        issue('Choose the date and the description columns.');
      else if (amount === null && credit === null)
        issue('Choose the amount column, or the credit column.');
    }),
  );

const matchReasons = ['reference', 'rule', 'amount', 'balance', 'name'] as const;
export type MatchReason = (typeof matchReasons)[number];
const confidences = ['high', 'medium', 'low'] as const;
export type Confidence = (typeof confidences)[number];

export const bankIdMaxLength = 200;

const descriptionField = z.string().check(z.maxLength(1000));

/** One incoming payment of a statement, as the bank wrote it. */
const bankLineSchema = z.object({
  /** Which line of the file (1 is the first), for the owner to find it. */
  line: z.int().check(z.minimum(1)),
  date: dateField,
  amount: z.int().check(z.positive(), z.maximum(maxAmountMinor)),
  description: descriptionField,
  reference: z.string().check(z.maxLength(200)),
  /** The payer's name from a column of its own, when the statement has one; not part of its identity. */
  counterparty: z.optional(z.string().check(z.maxLength(200))),
  balance: z.nullable(z.int()),
  /**
   * The bank's own id of the transaction with its account (OFX FITID, camt.053 AcctSvcrRef),
   * when the file gives one: the line's identity is derived from it instead of from its fields.
   */
  bankId: z.optional(z.string().check(z.minLength(1), z.maxLength(bankIdMaxLength))),
  /**
   * Which of the file's identical lines this is (same date, amount, description and running
   * balance, no `bankId`): 1 for the first or only one, 2 for its twin... Part of the line's
   * identity, so identical lines are separate payments. Absent on confirm: counted among the
   * confirmed lines.
   */
  occurrence: z.optional(z.int().check(z.minimum(1), z.maximum(bankStatementMaxLines))),
});
export type BankLine = z.infer<typeof bankLineSchema>;

/** What a payer rule was learned from: the confirmed line's client was found by that, or picked. */
export const learnedFroms = ['name', 'amount', 'balance', 'manual'] as const;
export type LearnedFrom = (typeof learnedFroms)[number];

/** Where a payer rule was learned: the import (its account and day) and its line. */
const ruleLearnedSchema = z.object({
  /** When the rule was learned or last changed. */
  at: z.string(),
  /** The account of the import that taught it; null for a rule learned before issue 53. */
  accountLabel: z.nullable(z.string()),
  line: z.nullable(z.int()),
  from: z.nullable(z.enum(learnedFroms)),
});
export type RuleLearned = z.infer<typeof ruleLearnedSchema>;

/**
 * Why a suggestion is not certain: `payer` the text names another client (`otherClientId`) than
 * the one the reference or rule gives; `reference` a reference in the text is another client's
 * charge; `rule` a learned payer names another client; `namesake` another client has this name;
 * `amount` the amount is neither the charge's open amount nor the balance; `near` a reference
 * one character off this charge's (`reference`) with its exact amount.
 */
const cautionKinds = ['payer', 'reference', 'rule', 'namesake', 'amount', 'near'] as const;

const cautionSchema = z.object({
  kind: z.enum(cautionKinds),
  reference: z.optional(z.string()),
  otherClientId: z.optional(z.string()),
});
export type Caution = z.infer<typeof cautionSchema>;

const suggestionSchema = z.object({
  clientId: z.string(),
  reason: z.enum(matchReasons),
  confidence: z.enum(confidences),
  /** The conflict that keeps it from high, in words on the screen. */
  caution: z.optional(cautionSchema),
  /** For a `rule`: where it was learned. */
  learned: z.optional(ruleLearnedSchema),
  /**
   * The open charges of this client the line pays (issue 57): its references, one charge of the
   * amount, or the one pair or triple adding up to it. Left out: it settles the oldest first.
   */
  pays: z.optional(
    z.array(
      z.object({
        entryId: z.int(),
        reference: z.string(),
        note: z.string(),
        date: z.string(),
        openAmount: z.int(),
      }),
    ),
  ),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

const previewLineSchema = z.extend(bankLineSchema, {
  /** The line's identity: the same line of a later statement has the same one. */
  id: z.string(),
  /** Recorded by an earlier confirmed import. */
  alreadyRecorded: z.boolean(),
  suggestions: z.array(suggestionSchema),
});
export type PreviewLine = z.infer<typeof previewLineSchema>;

/** A client suggested by the preview, named so the screen needs no request per client. */
const suggestedClientSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** A business client's company, by which the screen names it (issue 56). */
  company: z.optional(z.string()),
});
export type SuggestedClient = z.infer<typeof suggestedClientSchema>;

export const bankPreviewSchema = z.object({
  lines: z.array(previewLineSchema),
  /** Every client suggested for a line, once. */
  clients: z.array(suggestedClientSchema),
  /** Outgoing amounts and empty lines, left out. */
  skipped: z.int(),
  /** Lines identical to another line of the file (`occurrence`), kept as separate payments. */
  twins: z.int(),
});
export type BankPreview = z.infer<typeof bankPreviewSchema>;

const bankConfirmMaxLines = 5000;

/** A confirmed line: the bank's fields as previewed, and who paid how much of it. */
const confirmLineSchema = z.extend(bankLineSchema, {
  /** One client for the whole amount, or a split whose parts add up to it. */
  allocations: z
    .array(
      z.object({
        clientId: z.string().check(z.minLength(1), z.maxLength(64)),
        amount: z.int().check(z.positive(), z.maximum(maxAmountMinor)),
        /** The charges this part pays, as the preview named them (and the person kept). */
        pays: z.optional(z.array(z.int().check(z.positive())).check(z.maxLength(paysMax))),
      }),
    )
    .check(z.minLength(1, 'Choose a client.'), z.maxLength(20)),
});

/** A CSV layout's mapping, remembered under the key of its header row (`bankLayoutKey`). */
const bankLayoutSchema = z.object({
  key: z.string().check(z.regex(bankLayoutKeyPattern, 'This layout key is invalid.')),
  mapping: bankMappingSchema,
});
export type BankLayout = z.infer<typeof bankLayoutSchema>;

export const bankConfirmBodySchema = z.strictObject({
  accountLabel,
  currency: currencyField,
  lines: z.array(confirmLineSchema).check(z.minLength(1), z.maxLength(bankConfirmMaxLines)),
  /** The mapping the statement was read with, remembered for the next one of that layout. */
  layout: z.optional(bankLayoutSchema),
});
export type BankConfirmBody = z.infer<typeof bankConfirmBodySchema>;

export const bankConfirmedSchema = z.object({
  /** null when every line had been recorded before. */
  batchId: z.nullable(z.string()),
  recorded: z.array(z.object({ lineId: z.string(), entryIds: z.array(z.int()) })),
  alreadyRecorded: z.array(z.string()),
});
export type BankConfirmed = z.infer<typeof bankConfirmedSchema>;

/** GET /api/bank/layouts: the layouts remembered and the accounts imported before, newest first. */
export const bankLayoutsSchema = z.object({
  layouts: z.array(z.extend(bankLayoutSchema, { updatedAt: z.string() })),
  accounts: z.array(z.object({ label: z.string(), currency: currencyField })),
});
export type BankLayouts = z.infer<typeof bankLayoutsSchema>;

export const bankBatchParams = z.object({ id: z.string().check(z.maxLength(64)) });

export const bankUndoneSchema = z.object({ voided: z.int() });

/** A learned payer by the `id` the list gives it; an id of another form is simply not found. */
export const bankRuleParams = z.object({ id: z.string().check(z.maxLength(64)) });

/** A payer the owner confirmed: the folded text of their transfers, and who pays under it. */
const bankRuleSchema = z.object({
  /** What DELETE /api/bank/rules/:id names it by. */
  id: z.string(),
  payerKey: z.string(),
  /** null once the text was confirmed for two different clients: it matches nobody. */
  client: z.nullable(z.object({ id: z.string(), firstName: z.string(), lastName: z.string() })),
  updatedAt: z.string(),
  learned: ruleLearnedSchema,
});
export type BankRule = z.infer<typeof bankRuleSchema>;

/** GET /api/bank/rules: every learned payer, by its text. */
export const bankRuleListSchema = z.object({ rules: z.array(bankRuleSchema) });
export type BankRuleList = z.infer<typeof bankRuleListSchema>;
