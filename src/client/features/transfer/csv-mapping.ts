import { unprotectCell } from '../../../shared/csv.ts';
import { isCurrency, parseAmount } from '../../../shared/money.ts';
import { guessColumns } from '../../lib/csv-columns.ts';
import { businessFields, type BusinessField } from '../../../shared/schemas/clients.ts';
import type { ImportRow } from './api/import-clients.ts';

export const importFields = [
  'firstName', // i18n-ignore: a field's name, not shown
  'lastName', // i18n-ignore: a field's name, not shown
  'email',
  'phone',
  'balance',
  'currency',
  'openingDate',
  'openingDueDate',
  'openingReference',
  'company',
  'addressLine1',
  'addressLine2',
  'city',
  'postcode',
  'country',
  'taxId',
  'notes',
] as const;
export type ImportField = (typeof importFields)[number];

const headerWords: Record<ImportField, string[]> = {
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  email: ['email', 'emailaddress', 'mail'],
  phone: ['phone', 'phonenumber', 'telephone', 'tel', 'mobile'],
  balance: ['balance', 'amount', 'owed', 'amountowed', 'due'],
  currency: ['currency', 'currencycode', 'ccy'],
  openingDate: ['asof', 'balanceasof', 'date', 'balancedate', 'openingdate'],
  openingDueDate: ['duedate', 'dueon', 'payby', 'paymentdue'],
  openingReference: ['reference', 'ref', 'invoice', 'invoiceno', 'invoicenumber'],
  company: ['company', 'companyname', 'business', 'businessname', 'organisation', 'organization'],
  addressLine1: ['addressline', 'address', 'street', 'billingaddress', 'addressline1'],
  // "Address line 2" reads as its words without the digit, as line 1 does: see guessMapping.
  addressLine2: [],
  city: ['city', 'town'],
  postcode: ['postcode', 'postalcode', 'zip', 'zipcode'],
  country: ['country'],
  taxId: ['taxid', 'taxnumber', 'vat', 'vatnumber', 'gst', 'brn', 'businessnumber'],
  notes: ['notes', 'note', 'comments', 'privatenotes'],
};

/** Column index of each field, guessed from the header ("First name", "first_name", "E-mail"…). */
export function guessMapping(header: string[]): Record<ImportField, number | null> {
  const mapping = guessColumns(header, headerWords);
  // Two "Address line" columns: the second is line 2.
  const first = mapping.addressLine1;
  if (first !== null) {
    const second = header.findIndex(
      (cell, index) =>
        index > first && cell.toLowerCase().replace(/[^\p{L}]/gu, '') === 'addressline',
    );
    if (second >= 0) mapping.addressLine2 = second;
  }
  return mapping;
}

/**
 * One CSV line as the body the Add Client route takes: the currency by ISO code ("RM" is MYR),
 * the balance in minor units when it reads as an amount, with its date, due date and reference
 * when the file has them. What cannot be read is passed on as
 * it is, so the server's check names it.
 */
export function toImportRow(
  cells: string[],
  mapping: Record<ImportField, number | null>,
): { row: ImportRow; balanceError: string | null } {
  const cell = (field: ImportField) => {
    const index = mapping[field];
    return index === null ? '' : unprotectCell((cells[index] ?? '').trim());
  };
  const currencyText = cell('currency').toUpperCase();
  const currency = currencyText === 'RM' ? 'MYR' : currencyText;
  const balanceText = cell('balance');
  let balance: unknown = balanceText;
  let balanceError: string | null = null;
  if (isCurrency(currency)) {
    const parsed = parseAmount(balanceText, currency);
    if (parsed.ok) balance = parsed.minor;
    else balanceError = parsed.error;
  }
  // An empty date or reference is left out: as of today, due on that day, no reference.
  const optional = (
    field: 'openingDate' | 'openingDueDate' | 'openingReference' | BusinessField,
  ) => (cell(field) === '' ? {} : { [field]: cell(field) });
  const row = {
    firstName: cell('firstName'), // i18n-ignore: a field's name, not shown
    lastName: cell('lastName'), // i18n-ignore: a field's name, not shown
    email: cell('email'),
    phone: cell('phone'),
    currency,
    balance,
    ...optional('openingDate'),
    ...optional('openingDueDate'),
    ...optional('openingReference'),
    // A file without the business columns (made before them) imports people, as it did.
    ...businessFields.reduce<Record<string, string>>(
      (given, field) => ({ ...given, ...optional(field) }),
      {},
    ),
  };
  return { row, balanceError };
}

/** What the CSV reader reports about a line it could not read cleanly. */
export interface CsvProblem {
  type: string;
  code: string;
  row?: number | undefined;
}

/** A quote that is never closed, and the line of the file where it opened when known. */
export interface QuoteProblem {
  line: number | null;
}

/**
 * A quote that is never closed swallows every line after it into one cell, so the rows that
 * follow vanish without a word. Such a file is refused, naming the line where the quote opened
 * (the page says so in the shown language).
 */
export function quoteProblem(problems: readonly CsvProblem[], rowsBefore = 0): QuoteProblem | null {
  // i18n-ignore: the CSV reader's name for the problem, not shown
  const problem = problems.find((candidate) => candidate.type === 'Quotes');
  if (!problem) return null;
  return { line: problem.row === undefined ? null : rowsBefore + problem.row + 1 };
}
