import { createHash } from 'node:crypto';
import Papa from 'papaparse';
import { readBankDate } from '../../../shared/dates.ts';
import { currencyExponent, maxAmountMinor, type Currency } from '../../../shared/money.ts';
import {
  bankStatementMaxLines,
  type BankLine,
  type BankMapping,
} from '../../../shared/schemas/bank.ts';
import { AppError } from '../../errors.ts';
import iconv from 'iconv-lite';
import type { MessageValues } from '../../i18n.ts';

// A bank statement CSV read on the server: the browser cannot decode the legacy Korean
// encodings reliably and the identity of each line must be worked out where it is kept
// (docs/decisions/030-payments-from-the-bank.md).

export const bankLineLimit = bankStatementMaxLines;

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

/**
 * Excel's "Unicode text" is UTF-16 with its byte order mark (and tabs between the cells): read
 * whatever encoding was chosen. UTF-16 without the mark cannot be told for sure: refused by name,
 * as the OFX path does, when every other byte of its first characters is a zero.
 */
function decodeUtf16(bytes: Uint8Array): string | null {
  const [first, second] = bytes;
  const order =
    first === 0xff && second === 0xfe
      ? 'utf-16le'
      : first === 0xfe && second === 0xff
        ? 'utf-16be'
        : null;
  if (order === null) {
    const zero = (at: number) => bytes[at] === 0;
    if (
      bytes.length >= 4 &&
      ((zero(1) && zero(3) && !zero(0) && !zero(2)) || (zero(0) && zero(2) && !zero(1) && !zero(3)))
    )
      throw fileProblem('The file is in UTF-16; save it as UTF-8.');
    return null;
  }
  try {
    return new TextDecoder(order, { fatal: true }).decode(bytes.subarray(2));
  } catch {
    throw fileProblem('The file is in UTF-16; save it as UTF-8.');
  }
}

function decode(bytes: Uint8Array, encoding: BankMapping['encoding']): string {
  const utf16 = decodeUtf16(bytes);
  if (utf16 !== null) return utf16;
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

const unclosedQuote = (line: number) =>
  fileProblem('Line {line}: a quote opens here and is never closed.', { line });

/** Line breaks as an editor counts them (`\r\n`, `\n` or `\r`) in `text` from `from` to `to`. */
function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code === 10) count++;
    else if (code === 13) {
      count++;
      if (text.charCodeAt(at + 1) === 10) at++;
    }
  }
  return count;
}

/** A row's characters: a bank's longest line is a few hundred. */
const csvLineLimit = 10_000;
/** A row's separators (`,`, `;`, tab or `|`, whichever the file uses): banks write a dozen or two. */
const csvColumnLimit = 200;
/** Rows, blank ones included: a statement's 20,000 lines, its title lines and some blank ones. */
const csvRowLimit = 50_000;
/** Separators in all: 20,000 lines of 50 columns. */
const csvCellLimit = 1_000_000;

/**
 * Refuses, in one pass before the CSV parser sees it, a file no statement is: a row longer than
 * `csvLineLimit` characters (a quoted cell that runs on counts as its row), of more than
 * `csvColumnLimit` columns, more than `csvRowLimit` rows or `csvCellLimit` cells. The parser's
 * time grows with what this lets through (issue 54: 4 MB of quotes held the server for seconds).
 */
function refuseLargeCsv(text: string): void {
  let rows = 0;
  let line = 1;
  let rowLine = 1;
  let rowStart = 0;
  let columns = 0;
  let cells = 0;
  let quoted = false;
  let quoteLine = 1;
  // A row over the limit inside a quote that never closes is told as that quote.
  const tooLong = (at: number) =>
    quoted && text.indexOf('"', at + 1) === -1
      ? unclosedQuote(quoteLine)
      : fileProblem('Line {line} is longer than {count} characters.', {
          line: rowLine,
          count: csvLineLimit,
        });
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      quoted = !quoted;
      if (quoted) quoteLine = line;
    } else if (code === 10 || code === 13) {
      if (code === 13 && text.charCodeAt(at + 1) === 10) at++;
      line++;
      if (quoted) continue;
      if (at - rowStart > csvLineLimit) throw tooLong(at);
      if (++rows > csvRowLimit)
        throw fileProblem('The file has more than {count} rows.', { count: csvRowLimit });
      rowStart = at + 1;
      rowLine = line;
      columns = 0;
    } else if (!quoted && (code === 0x2c || code === 0x3b || code === 0x09 || code === 0x7c)) {
      if (++columns > csvColumnLimit)
        throw fileProblem('Line {line} has more than {count} columns.', {
          line: rowLine,
          count: csvColumnLimit,
        });
      if (++cells > csvCellLimit)
        throw fileProblem('The file has more than {count} cells.', { count: csvCellLimit });
    }
    if (at - rowStart > csvLineLimit) throw tooLong(at);
  }
}

/**
 * The file's rows after the first `skipRows` that are not blank, each with the line an editor
 * shows it on (blank lines and line breaks inside quoted cells counted). A quote that never
 * closes is refused naming its line, not read as one cell running to the end of the file.
 */
function csvRows(text: string, skipRows: number): StatementRow[] {
  const rows: StatementRow[] = [];
  // Set in the parser's callback, which the narrowing of `let` does not see.
  let problem = null as Error | null;
  let filled = 0;
  // Where the row being read starts, and its line.
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    step: (result, parser) => {
      const cells = result.data;
      const end = result.meta.cursor;
      const quote = result.errors.find(
        (error) =>
          error.code === 'MissingQuotes' ||
          // A malformed closing quote that ran on to the next line break's quote.
          (error.code === 'InvalidQuotes' && cells.some((cell) => /[\r\n]/.test(cell))),
      );
      if (quote) {
        // Papa points after the quote that opens the cell.
        const at = Math.max(start, Math.min(end, (quote.index ?? start) - 1));
        problem = unclosedQuote(line + lineBreaks(text, start, at));
        parser.abort();
        return;
      }
      if (cells.some((cell) => cell.trim() !== '') && ++filled > skipRows) {
        // One line more than allowed is enough to know that there are too many.
        if (rows.length === bankLineLimit) {
          problem = tooManyLines();
          parser.abort();
          return;
        }
        rows.push({ cells, line });
      }
      line += lineBreaks(text, start, end);
      start = end;
    },
  });
  if (problem) throw problem;
  return rows;
}

/** A row of a statement's cells, with the line (or spreadsheet row) it is on. */
export interface StatementRow {
  cells: string[];
  line: number;
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
  refuseLargeCsv(text);
  return linesOfRows(csvRows(text, mapping.skipRows), mapping, currency);
}

/** Rows as a sheet holds them, after the first `skipRows` that are not blank. */
export function rowsAfterSkipped(rows: readonly StatementRow[], skipRows: number): StatementRow[] {
  const kept: StatementRow[] = [];
  let filled = 0;
  for (const row of rows)
    if (row.cells.some((cell) => cell.trim() !== '') && ++filled > skipRows) {
      if (kept.length === bankLineLimit) throw tooManyLines();
      kept.push(row);
    }
  return kept;
}

/** The incoming payments of a statement's rows (CSV or spreadsheet), in the mapping's columns. */
export function linesOfRows(
  rows: readonly StatementRow[],
  mapping: BankMapping,
  currency: Currency,
): ParsedStatement {
  if (mapping.amount === undefined && mapping.credit === undefined)
    throw fileProblem('Choose the amount column, or the credit column.');
  const cell = (row: string[], column: number | undefined) =>
    column === undefined ? '' : (row[column] ?? '').trim();
  const lines: BankLine[] = [];
  let skipped = 0;
  for (const { cells: row, line } of rows) {
    if (columnsOf(mapping).every((column) => cell(row, column) === '')) {
      skipped++;
      continue;
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
      continue;
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
      ...(mapping.counterparty !== undefined && {
        counterparty: cell(row, mapping.counterparty).slice(0, 200),
      }),
      balance,
    });
  }
  return { lines, skipped };
}

/** What identical lines of one file share: the line's identity but for its `occurrence`. */
const twinKey = (line: Pick<BankLine, 'date' | 'amount' | 'description' | 'balance'>) =>
  JSON.stringify([line.date, line.amount, line.description.trim(), line.balance]);

/**
 * Numbers the identical lines of a file (same date, amount, description and running balance, no
 * bank id) 1, 2, 3... in the file's order, so that each is a payment of its own; answers how many
 * lines have an identical one. A bank id is the bank's word: lines that repeat one with the same
 * fields are one transaction listed twice (the same occurrence), while a bank id reused for
 * different fields numbers each set of fields (a bank's ids that are not unique lose no payment).
 * With `given`, lines that carry their occurrence keep it (a confirm's).
 */
export function numberTwins<Line extends BankLine>(lines: Line[], given = false): number {
  const seen = new Map<string, number>();
  const underBankId = new Map<string, string[]>();
  for (const line of lines) {
    if (given && line.occurrence !== undefined) continue;
    const key = twinKey(line);
    if (line.bankId !== undefined) {
      const fields = underBankId.get(line.bankId) ?? [];
      if (!fields.includes(key)) fields.push(key);
      underBankId.set(line.bankId, fields);
      line.occurrence = fields.indexOf(key) + 1;
      continue;
    }
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    line.occurrence = occurrence;
  }
  let twins = 0;
  for (const count of seen.values()) if (count > 1) twins += count;
  return twins;
}

/**
 * A line's identity across statements: the same payment in an overlapping statement of the same
 * account gives the same one. The bank's own id of the transaction (OFX FITID, camt.053
 * AcctSvcrRef, with its account) when the file gives one; else its fields, where two equal
 * payments on one day are told apart by the running balance when the bank gives one, else by
 * their `occurrence` among the file's identical lines (the first's identity is the fields' alone,
 * as before identical lines were told apart); a bank id reused for other fields, likewise. The same rule runs on the previewed and on the
 * confirmed line, so a client cannot send an id of its own.
 */
export function bankLineId(
  accountLabel: string,
  currency: Currency,
  line: Pick<BankLine, 'date' | 'amount' | 'description' | 'balance' | 'bankId' | 'occurrence'>,
): string {
  const account = accountLabel.trim().toLowerCase();
  const occurrence = line.occurrence ?? 1;
  const fields =
    line.bankId !== undefined
      ? occurrence === 1
        ? [account, currency, 'bank', line.bankId]
        : [account, currency, 'bank', line.bankId, 'occurrence', occurrence]
      : occurrence === 1
        ? [account, currency, line.date, line.amount, line.description.trim(), line.balance]
        : [
            account,
            currency,
            line.date,
            line.amount,
            line.description.trim(),
            line.balance,
            'occurrence',
            occurrence,
          ];
  return createHash('sha256').update(JSON.stringify(fields)).digest('base64url').slice(0, 32);
}
