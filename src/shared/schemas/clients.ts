import { z } from 'zod/mini';
import { addDays, isCalendarDate } from '../dates.ts';
import { currencies, maxAmountMinor, parseAmount, type Currency } from '../money.ts';
import { isSyllabicName } from '../names.ts';
import { emailField } from './auth.ts';
import { clientSorts, type AgeingBucketName, type ClientSort } from '../client-list.ts';

const nameMinLength = 2;
const phoneMinLength = 10;

/**
 * Control characters (NUL above all, which PostgreSQL cannot store) have no place in a name, nor
 * do the bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069), which
 * can make a name display as something else ("Trojan Source"). Plain direction marks stay.
 */
export const noControlCharacters = z.refine<string>(
  (text) =>
    ![...text].some((character) => {
      const code = character.charCodeAt(0);
      return (
        code < 0x20 ||
        code === 0x7f ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069)
      );
    }),
  'Remove the control characters.',
);

const nameField = (requiredMessage: string) =>
  z.string().check(
    z.trim(),
    z.minLength(1, requiredMessage),
    noControlCharacters,
    // Latin and other alphabets keep the minimum; one Hangul, Han or Kana character is a name.
    z.refine(
      (text) => text.length >= nameMinLength || isSyllabicName(text),
      `must be at least ${nameMinLength} characters`,
    ),
    z.maxLength(100, 'Use at most 100 characters.'),
  );

/** Digits with the usual separators: "+1 (555) 010-2030", "010.1234.5678". */
const phonePattern = /^\+?[0-9 ().-]+$/;

const phoneField = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'phone required'),
    z.minLength(phoneMinLength, 'enter valid phone'),
    z.maxLength(30, 'Use at most 30 characters.'),
    z.regex(phonePattern, 'enter valid phone'),
  );

export const currencyField = z.enum(currencies, 'Choose a currency.');

/** The longest each of a business client's own fields may be. */
export const businessFieldMaxLength = {
  company: 200,
  addressLine1: 200,
  addressLine2: 200,
  city: 100,
  postcode: 20,
  country: 100,
  taxId: 50,
  notes: 2000,
} as const;

/** The business fields of a client, in the order the form shows them. */
export const businessFields = [
  'company',
  'addressLine1',
  'addressLine2',
  'city',
  'postcode',
  'country',
  'taxId',
  'notes',
] as const;
export type BusinessField = (typeof businessFields)[number];

/** One line of a business's details: '' when none. */
const businessLine = (max: number) =>
  z
    .string()
    .check(z.trim(), noControlCharacters, z.maxLength(max, `Use at most ${max} characters.`));

/** Tabs and line breaks are how notes are written; other control characters are refused. */
export const notesText = z.refine<string>(
  (text) =>
    ![...text].some((character) => {
      const code = character.charCodeAt(0);
      const lineBreakOrTab = code === 0x09 || code === 0x0a || code === 0x0d;
      return (
        (code < 0x20 && !lineBreakOrTab) ||
        code === 0x7f ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069)
      );
    }),
  'Remove the control characters.',
);

/**
 * What makes a client a business, all optional: the company's name (the contact person stays in
 * first and last name), its billing address, its tax id, and the owner's private notes, which
 * never reach the client (statement, PDF, link page, e-mails).
 */
export const businessShape = {
  company: businessLine(businessFieldMaxLength.company),
  addressLine1: businessLine(businessFieldMaxLength.addressLine1),
  addressLine2: businessLine(businessFieldMaxLength.addressLine2),
  city: businessLine(businessFieldMaxLength.city),
  postcode: businessLine(businessFieldMaxLength.postcode),
  country: businessLine(businessFieldMaxLength.country),
  taxId: businessLine(businessFieldMaxLength.taxId),
  notes: z
    .string()
    .check(
      z.trim(),
      notesText,
      z.maxLength(
        businessFieldMaxLength.notes,
        `Use at most ${businessFieldMaxLength.notes} characters.`,
      ),
    ),
};
export type BusinessDetails = { [Field in BusinessField]: string };

/** A client with none of the business fields filled in. */
export const noBusiness: BusinessDetails = {
  company: '',
  addressLine1: '',
  addressLine2: '',
  city: '',
  postcode: '',
  country: '',
  taxId: '',
  notes: '',
};

/** The business fields as the API takes them: each left out means '' on add, unchanged on edit. */
const optionalBusinessShape = Object.fromEntries(
  businessFields.map((field) => [field, z.optional(businessShape[field])]),
) as { [Field in BusinessField]: z.ZodMiniOptional<(typeof businessShape)[Field]> };

/** The fields a person types, shared by the Add/Edit form and the API. */
const contactShape = {
  firstName: nameField('first name required'),
  lastName: nameField('last name required'),
  email: emailField,
  phone: phoneField,
  currency: currencyField,
};

export const balanceMinorField = z
  .int('Send a whole number of minor units.')
  .check(
    z.minimum(-maxAmountMinor, 'This amount is too large.'),
    z.maximum(maxAmountMinor, 'This amount is too large.'),
  );

export const dateField = z
  .string('Enter a date as YYYY-MM-DD.')
  .check(z.trim(), z.refine(isCalendarDate, 'Enter a date as YYYY-MM-DD.'));

export const entryReferenceMaxLength = 40;

/** The owner's own number for an entry (an invoice's, a cheque's); '' when none. */
export const referenceField = z
  .string()
  .check(
    z.trim(),
    noControlCharacters,
    z.maxLength(entryReferenceMaxLength, `Use at most ${entryReferenceMaxLength} characters.`),
  );

/**
 * POST /api/clients (and each row of an import): the balance in minor units of the client's
 * currency, omitted meaning 0, and what the opening balance it becomes is: the day it stood
 * ("as of", today when left out), when it is due (on that day when left out) and a reference.
 */
/** An opening balance's terms, as the Add form, an import row and the Edit form send them. */
const openingShape = {
  openingDate: z.optional(dateField),
  openingDueDate: z.optional(z.nullable(dateField)),
  openingReference: z.optional(referenceField),
};

const openingDueNotBeforeDate = z.superRefine<{
  openingDate?: string | undefined;
  openingDueDate?: string | null | undefined;
}>((client, context) => {
  if (client.openingDueDate && client.openingDate && client.openingDueDate < client.openingDate)
    context.addIssue({
      code: 'custom',
      path: ['openingDueDate'],
      message: 'The due date cannot be before the date of the balance.',
      input: client.openingDueDate,
    });
});

export const clientInputSchema = z
  .strictObject({
    ...contactShape,
    balance: z.optional(balanceMinorField),
    ...openingShape,
    ...optionalBusinessShape,
  })
  .check(openingDueNotBeforeDate);
export type ClientInput = z.infer<typeof clientInputSchema>;

/**
 * What is wrong with an opening balance's dates on `today` (the server's UTC day; the browser's
 * may be a day ahead): a day that has not come yet, a typing slip before 1900, or a due date
 * before the balance's own date. Empty when nothing is.
 */
export function openingDateProblems(
  client: Pick<ClientInput, 'openingDate' | 'openingDueDate'>,
  today: string,
): Record<string, string> {
  const problems: Record<string, string> = {};
  const date = client.openingDate ?? today;
  if (date > addDays(today, 1)) problems.openingDate = 'The date cannot be in the future.';
  else if (date < '1900-01-01') problems.openingDate = 'Use a date in 1900 or later.';
  if (client.openingDueDate && client.openingDueDate < date)
    problems.openingDueDate = 'The due date cannot be before the date of the balance.';
  return problems;
}

/**
 * PUT /api/clients/:id: the whole client, with the version it was read at, and optionally new
 * terms for its opening balance (each left out stays as it is), checked as on creation.
 */
export const clientUpdateSchema = z
  .strictObject({
    ...contactShape,
    balance: balanceMinorField,
    version: z.int().check(z.positive()),
    ...openingShape,
    ...optionalBusinessShape,
  })
  .check(openingDueNotBeforeDate);
export type ClientUpdate = z.infer<typeof clientUpdateSchema>;

/**
 * PATCH /api/clients/:id/balance: the new balance, and what the change was made against: the
 * balance the user started from (what the details page sends), or the version of the client they
 * read. If the client no longer matches, the change is refused as a conflict rather than applied.
 */
export const balanceUpdateSchema = z
  .strictObject({
    balance: balanceMinorField,
    previousBalance: z.optional(balanceMinorField),
    version: z.optional(z.int().check(z.positive())),
  })
  .check(
    z.refine((body) => body.previousBalance !== undefined || body.version !== undefined, {
      message: 'Send the balance you started from.',
      path: ['previousBalance'],
    }),
  );
export type BalanceUpdate = z.infer<typeof balanceUpdateSchema>;

/** A form's `balance` as typed must be an amount in the form's currency (`parseAmount`). */
const balanceTypedIn = <Form extends { balance: string }>(currencyOf: (form: Form) => Currency) =>
  z.superRefine<Form>((form, context) => {
    const parsed = parseAmount(form.balance, currencyOf(form));
    if (!parsed.ok)
      context.addIssue({
        code: 'custom',
        path: ['balance'],
        message: parsed.error,
        input: form.balance,
      });
  });

/** The details page's pencil: the new balance as typed, in its currency's decimals ("" for 0). */
export const balanceFormSchema = (currency: Currency) =>
  z.object({ balance: z.string() }).check(balanceTypedIn(() => currency));
export type BalanceForm = z.input<ReturnType<typeof balanceFormSchema>>;

/**
 * The Add/Edit form: the same contact fields, with the balance as typed ("1,234.5", "" for 0),
 * checked against the chosen currency's decimals.
 */
export const clientFormSchema = z
  .object({
    ...contactShape,
    balance: z.string(),
    // Only the Add form has these: what the balance typed is, as an opening balance.
    openingDate: z.optional(z.string().check(z.trim())),
    openingDueDate: z.optional(z.string().check(z.trim())),
    openingReference: z.optional(referenceField),
    // Always on the form, in its optional group; optional here for forms made without it.
    ...optionalBusinessShape,
  })
  .check(
    balanceTypedIn((form) => form.currency),
    z.superRefine((form, context) => {
      const issue = (path: string, message: string, input: string) =>
        context.addIssue({ code: 'custom', path: [path], message, input });
      const { openingDate = '', openingDueDate = '' } = form;
      if (openingDate !== '' && !isCalendarDate(openingDate))
        issue('openingDate', 'Enter a date as YYYY-MM-DD.', openingDate);
      if (openingDueDate !== '' && !isCalendarDate(openingDueDate))
        issue('openingDueDate', 'Enter a date as YYYY-MM-DD.', openingDueDate);
      else if (openingDueDate !== '' && openingDate !== '' && openingDueDate < openingDate)
        issue(
          'openingDueDate',
          'The due date cannot be before the date of the balance.',
          openingDueDate,
        );
    }),
  );
export type ClientForm = z.input<typeof clientFormSchema>;

export const clientIdParams = z.object({ id: z.string() });

/** A client's own fields, as the history keeps them before and after each change. */
export const clientSnapshotSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  balance: z.number(),
  currency: currencyField,
  // A business client's details, each only when not empty (and left out by events recorded
  // before clients could be businesses); the private notes only on an edit (decision 038).
  company: z.optional(z.string()),
  addressLine1: z.optional(z.string()),
  addressLine2: z.optional(z.string()),
  city: z.optional(z.string()),
  postcode: z.optional(z.string()),
  country: z.optional(z.string()),
  taxId: z.optional(z.string()),
  notes: z.optional(z.string()),
});
export type ClientSnapshot = z.infer<typeof clientSnapshotSchema>;

export const clientSchema = z.object({
  id: z.string(),
  ...clientSnapshotSchema.shape,
  company: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string(),
  city: z.string(),
  postcode: z.string(),
  country: z.string(),
  taxId: z.string(),
  /** The owner's private notes: never shown to the client. */
  notes: z.string(),
  version: z.number(),
  /** The earliest day an amount still unpaid fell due (YYYY-MM-DD); null when nothing is owed. */
  oldestDueDate: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Client = z.infer<typeof clientSchema>;

/** Totals travel as decimal strings of minor units: a sum can outgrow a safe integer. */
const currencyTotalSchema = z.object({ currency: currencyField, total: z.string() });
export type CurrencyTotal = z.infer<typeof currencyTotalSchema>;

/** The totals in US cents at the owner's own rates; null without a rate for every currency present. */
const convertedTotalSchema = z.object({ usdTotal: z.string(), ratesDate: z.string() });

export { type ClientSort };
const clientPageSizeMax = 200;

/**
 * GET /api/clients: what the dashboard's address bar holds. `q` matches name, e-mail and phone;
 * `owes` keeps balances above 0; the totals follow the same filter.
 */
export const clientListQuerySchema = z.object({
  q: z.optional(
    z
      .string()
      .check(z.trim(), z.maxLength(100, 'Use at most 100 characters.'), noControlCharacters),
  ),
  sort: z.optional(z.enum(clientSorts, `Use one of ${clientSorts.join(', ')}.`)),
  dir: z.optional(z.enum(['asc', 'desc'], 'Use asc or desc.')),
  currency: z.optional(currencyField),
  owes: z.optional(z.enum(['true', 'false'], 'Use true or false.')),
  /** Only clients with an amount unpaid past its due date. */
  overdue: z.optional(z.enum(['true', 'false'], 'Use true or false.')),
  cursor: z.optional(z.string().check(z.maxLength(1000, 'This value is invalid.'))),
  limit: z.optional(
    z
      .string()
      .check(
        z.regex(/^([1-9]\d?|1\d\d|200)$/, `Use a whole number from 1 to ${clientPageSizeMax}.`),
      ),
  ),
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

export const clientListSchema = z.object({
  clients: z.array(clientSchema),
  /** How many clients match the filter, over all pages. */
  count: z.number(),
  /** Where the next page starts; null on the last page. */
  nextCursor: z.nullable(z.string()),
  totals: z.array(currencyTotalSchema),
  converted: z.nullable(convertedTotalSchema),
  /** The day (UTC) the list was worked out for: what "overdue" and its days are counted from. */
  asOf: z.string(),
});
export type ClientList = z.infer<typeof clientListSchema>;

export { type AgeingBucketName };

/**
 * GET /api/ageing: per currency, what is unpaid by how long it is overdue, as decimal minor
 * units; the buckets add up to `owed`, the sum of the balances above 0.
 */
export const ageingSchema = z.object({
  asOf: z.string(),
  currencies: z.array(
    z.object({
      currency: currencyField,
      owed: z.string(),
      buckets: z.object({
        current: z.string(),
        days1to30: z.string(),
        days31to60: z.string(),
        days61to90: z.string(),
        over90: z.string(),
      }),
    }),
  ),
});
export type Ageing = z.infer<typeof ageingSchema>;

/** The most rows one import may carry. */
export const importMaxRows = 20_000;

/** POST /api/clients/import: rows as the form would send them; checked row by row on the server. */
export const importBodySchema = z.strictObject({
  rows: z
    .array(z.unknown())
    .check(z.maxLength(importMaxRows, `Send at most ${importMaxRows} rows at a time.`)),
  /** Only check and report; write nothing. */
  dryRun: z.boolean('Use true or false.'),
  /** Leave out rows whose e-mail is already one of the owner's clients (or earlier in the file). */
  skipDuplicates: z.boolean('Use true or false.'),
});

export const importRowResultSchema = z.object({
  row: z.number(),
  status: z.enum(['ok', 'invalid', 'duplicate']),
  errors: z.optional(z.record(z.string(), z.string())),
  duplicateOf: z.optional(z.enum(['existing', 'file'])),
});
export type ImportRowResult = z.infer<typeof importRowResultSchema>;

export const importResultSchema = z.object({
  results: z.array(importRowResultSchema),
  imported: z.number(),
  balancesZeroed: z.boolean(),
});
export type ImportResult = z.infer<typeof importResultSchema>;
