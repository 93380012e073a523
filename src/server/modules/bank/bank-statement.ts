import { createHash } from 'node:crypto';
import Papa from 'papaparse';
import { readBankDate } from '../../../shared/dates.ts';
import { currencyExponent, maxAmountMinor, type Currency } from '../../../shared/money.ts';
import type { BankLine, BankMapping } from '../../../shared/schemas/bank.ts';
import { AppError } from '../../errors.ts';
import iconv from 'iconv-lite';
import type { MessageValues } from '../../i18n.ts';

// A bank statement CSV read on the server: the browser cannot decode the legacy Korean
// encodings reliably and the identity of each line must be worked out where it is kept
// (docs/decisions/030-payments-from-the-bank.md).

export const bankLineLimit = 20_000;

/** A `400` about the file, shown beside it. */
export const fileProblem = (message: string, values: MessageValues = {}) =>
  new AppError(400, 'validation', message, { values, fields: { file: { text: message, values } } });

export const tooManyLines = () =>
  fileProblem('A statement may have at most {count} lines.', { count: bankLineLimit });

const cellProblem = (line: number, column: number, what: string) =>
  fileProblem('Line {line}, column {column}: {what}', {
    line,
    column: column + 1,
    what: { text: what },
  });

function decode(bytes: Uint8Array, encoding: BankMapping['encoding']): string {
  const refused = () =>
    fileProblem('The file is not in the encoding chosen ({encoding}).', { encoding });
  if (encoding === 'euc-kr') {
    // CP949, which Korean banks write: EUC-KR and the syllables it lacks (Node's TextDecoder
    // passes those through as control characters). A pair that is no character becomes U+FFFD,
    // which no CP949 character decodes to.
    const text = iconv.decode(Buffer.from(bytes), 'cp949');
    if (text.includes('\uFFFD')) throw refused();
    return text;
  }
  try {
    // fatal: a file in another encoding than the one chosen is refused, not turned into ���.
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    throw refused();
  }
}

/**
 * An amount as banks write it, in minor units: currency signs and letters, spaces and the
 * grouping mark taken off, a minus sign or brackets for an outgoing one. Null when it is not one.
 */
export function parseBankAmount(
  text: string,
  decimal: BankMapping['decimal'],
  currency: Currency,
): number | null {
  let plain = text.replace(/[\s\u00a0\u202f]/g, '');
  const bracketed = /^\(.*\)$/.test(plain);
  if (bracketed) plain = plain.slice(1, -1);
  plain = plain.replace(/[^\d.,+'-]/g, '');
  const grouping = decimal === '.' ? /[,']/g : /[.']/g;
  plain = plain.replace(grouping, '');
  if (decimal === ',') plain = plain.replace(',', '.');
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(-?)$/.exec(plain);
  if (!match || (match[2] === '' && !match[3])) return null;
  const [, sign, whole, fraction = '', trailingMinus] = match;
  const exponent = currencyExponent[currency];
  // Banks print 1,000.00 for a currency without decimals: the zeros say nothing.
  const kept = fraction.slice(0, exponent);
  if (/[^0]/.test(fraction.slice(exponent))) return null;
  const magnitude = Number(`${whole || '0'}${kept.padEnd(exponent, '0')}`);
  if (!Number.isSafeInteger(magnitude) || magnitude > maxAmountMinor) return null;
  const negative = bracketed || sign === '-' || trailingMinus === '-';
  return negative ? -magnitude : magnitude;
}

export interface ParsedStatement {
  lines: BankLine[];
  /** Outgoing amounts and empty lines. */
  skipped: number;
}

const columnsOf = (mapping: BankMapping) =>
  [mapping.date, mapping.description, mapping.amount, mapping.debit, mapping.credit].filter(
    (column) => column !== undefined,
  );

/** The incoming payments of a statement; refused with the line and column of a bad cell. */
export function parseStatement(
  bytes: Uint8Array,
  mapping: BankMapping,
  currency: Currency,
): ParsedStatement {
  if (mapping.amount === undefined && mapping.credit === undefined)
    throw fileProblem('Choose the amount column, or the credit column.');
  const text = decode(bytes, mapping.encoding);
  const parsed = Papa.parse<string[]>(text, {
    skipEmptyLines: 'greedy',
    // One line more than allowed is enough to know that there are too many.
    preview: mapping.skipRows + bankLineLimit + 1,
  });
  const rows = parsed.data.slice(mapping.skipRows);
  if (rows.length > bankLineLimit) throw tooManyLines();
  const cell = (row: string[], column: number | undefined) =>
    column === undefined ? '' : (row[column] ?? '').trim();
  const lines: BankLine[] = [];
  let skipped = 0;
  rows.forEach((row, index) => {
    const line = index + 1 + mapping.skipRows;
    if (columnsOf(mapping).every((column) => cell(row, column) === '')) {
      skipped++;
      return;
    }
    const amountOf = (column: number | undefined) => {
      const written = cell(row, column);
      if (written === '') return 0;
      const amount = parseBankAmount(written, mapping.decimal, currency);
      if (amount === null) throw cellProblem(line, column as number, 'this is not an amount.');
      return amount;
    };
    const amount =
      mapping.amount !== undefined
        ? amountOf(mapping.amount)
        : Math.abs(amountOf(mapping.credit)) - Math.abs(amountOf(mapping.debit));
    if (amount <= 0) {
      skipped++;
      return;
    }
    const date = readBankDate(cell(row, mapping.date), mapping.dateOrder);
    if (date === null)
      throw cellProblem(line, mapping.date, 'this is not a date in the order chosen.');
    const balanceText = cell(row, mapping.balance);
    const balance =
      balanceText === '' ? null : parseBankAmount(balanceText, mapping.decimal, currency);
    if (balanceText !== '' && balance === null)
      throw cellProblem(line, mapping.balance as number, 'this is not an amount.');
    lines.push({
      line,
      date,
      amount,
      description: cell(row, mapping.description).slice(0, 1000),
      reference: cell(row, mapping.reference).slice(0, 200),
      balance,
    });
  });
  return { lines, skipped };
}

/**
 * A line's identity across statements: the same payment in an overlapping statement of the same
 * account gives the same one. The bank's own id of the transaction (OFX FITID, camt.053
 * AcctSvcrRef, with its account) when the file gives one; else its fields, where two equal
 * payments on one day are told apart by the running balance when the bank gives one. The same
 * rule runs on the previewed and on the confirmed line, so a client cannot send an id of its own.
 */
export function bankLineId(
  accountLabel: string,
  currency: Currency,
  line: Pick<BankLine, 'date' | 'amount' | 'description' | 'balance' | 'bankId'>,
): string {
  const account = accountLabel.trim().toLowerCase();
  const fields =
    line.bankId === undefined
      ? [account, currency, line.date, line.amount, line.description.trim(), line.balance]
      : [account, currency, 'bank', line.bankId];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 32);
}
