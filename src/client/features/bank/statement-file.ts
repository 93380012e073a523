import Papa from 'papaparse';
import { bankLayoutKey } from '../../../shared/bank-layout.ts';
import { readBankDate } from '../../../shared/dates.ts';
import type { BankFormat, BankMapping } from '../../../shared/schemas/bank.ts';
import { guessColumns } from '../../lib/csv-columns.ts';

export type StatementFormat = BankFormat;
export type Encoding = BankMapping['encoding'];
export type DateOrder = BankMapping['dateOrder'];

/** What kind of statement a file is, by its name and then its first bytes. */
export function statementFormat(name: string, bytes: Uint8Array): StatementFormat {
  const start = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096));
  if (/\.(ofx|qfx)$/i.test(name) || /OFXHEADER|<OFX>/i.test(start)) return 'ofx';
  if (/camt\.053/i.test(start) && (/\.xml$/i.test(name) || /^\s*(\uFEFF)?</.test(start)))
    return 'camt053';
  return 'csv';
}

/** UTF-8 when the bytes read as UTF-8, else the Korean banks' EUC-KR (CP949). */
export function guessEncoding(bytes: Uint8Array): Encoding {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return 'utf-8';
  } catch {
    return 'euc-kr';
  }
}

/**
 * The file's text for the page to show, and whether every byte read in that encoding (the
 * server decides for the import; a browser's euc-kr is CP949, as the server reads it).
 */
export function decodeForDisplay(bytes: Uint8Array, encoding: Encoding) {
  const text = new TextDecoder(encoding).decode(bytes);
  // A C1 control character is a byte pair some decoders pass through rather than refuse.
  return { text, clean: !/[\uFFFD\u0080-\u009F]/.test(text) };
}

/** The file's first rows, cell by cell. */
export function firstRows(text: string, count = 12): string[][] {
  return Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    preview: count,
    skipEmptyLines: 'greedy',
  }).data;
}

export const bankFields = [
  'date',
  'description',
  'amount',
  'credit',
  'debit',
  'reference',
  'balance',
] as const;
export type BankField = (typeof bankFields)[number];
export type ColumnChoice = Record<BankField, number | null>;

const words = (text: string) => text.split(' ');

// Header words of banks in English, Malay and Korean, written without spacing or punctuation;
// matched against a file's header, never shown.
const headerWords: Record<BankField, string[]> = {
  date: [
    ...words(
      'date transactiondate postingdate bookingdate valuedate txndate tarikh tarikhtransaksi',
    ),
    ...words('거래일자 거래일 거래일시 일자 날짜'), // i18n-ignore: header words, not shown
  ],
  description: [
    ...words('description details transactiondetails particulars narrative memo payee text'),
    ...words('keterangan butiran perihal'),
    ...words('적요 내용 거래내용 기재내용 입금자 보낸분'), // i18n-ignore: header words, not shown
  ],
  amount: [
    ...words('amount transactionamount amaun jumlah'),
    ...words('금액 거래금액'), // i18n-ignore: header words, not shown
  ],
  credit: [
    ...words('credit credits deposit deposits paidin moneyin kredit masuk'),
    ...words('입금 입금액 입금금액 맡기신금액'), // i18n-ignore: header words, not shown
  ],
  debit: [
    ...words('debit debits withdrawal withdrawals paidout moneyout keluar'),
    ...words('출금 출금액 출금금액 찾으신금액'), // i18n-ignore: header words, not shown
  ],
  reference: [
    ...words('reference ref refno referenceno rujukan'),
    ...words('참조 참조번호'), // i18n-ignore: header words, not shown
  ],
  balance: [
    ...words('balance runningbalance baki'),
    ...words('잔액 거래후잔액'), // i18n-ignore: header words, not shown
  ],
};

/** The columns guessed from a bank's header row. */
export function guessBankColumns(header: readonly string[]): ColumnChoice {
  return guessColumns(header, headerWords);
}

/** The mapping the server takes, from the page's choices; null while one that it needs is missing. */
export function toBankMapping(
  columns: ColumnChoice,
  habits: Pick<BankMapping, 'skipRows' | 'dateOrder' | 'decimal' | 'encoding'>,
): BankMapping | null {
  const { date, description, amount, credit, debit, reference, balance } = columns;
  if (date === null || description === null || (amount === null && credit === null)) return null;
  const optional = (key: BankField, value: number | null) =>
    value === null ? {} : { [key]: value };
  return {
    date,
    description,
    ...optional('amount', amount),
    ...optional('credit', amount === null ? credit : null),
    ...optional('debit', amount === null ? debit : null),
    ...optional('reference', reference),
    ...optional('balance', balance),
    ...habits,
  };
}

/** The page's column choices from a remembered mapping. */
export function columnsOf(mapping: BankMapping): ColumnChoice {
  return {
    date: mapping.date,
    description: mapping.description,
    amount: mapping.amount ?? null,
    credit: mapping.credit ?? null,
    debit: mapping.debit ?? null,
    reference: mapping.reference ?? null,
    balance: mapping.balance ?? null,
  };
}

/** The row that names the columns: the last of the rows skipped, if any. */
export function headerRow(rows: readonly string[][], skipRows: number): string[] | null {
  return skipRows > 0 ? (rows[skipRows - 1] ?? null) : null;
}

/** The remembered layout whose header is one of the file's first rows, with that row's place. */
export function findLayout<Layout extends { key: string }>(
  rows: readonly string[][],
  layouts: readonly Layout[],
): { layout: Layout; headerIndex: number } | null {
  const byKey = new Map(layouts.map((layout) => [layout.key, layout]));
  for (const [index, row] of rows.slice(0, 10).entries()) {
    const layout = byKey.get(bankLayoutKey(row));
    if (layout) return { layout, headerIndex: index };
  }
  return null;
}

/** The order a file's dates are most likely in, from its date cells. */
export function guessDateOrder(cells: readonly string[]): DateOrder {
  const orders: DateOrder[] = ['YMD', 'DMY', 'MDY'];
  const fits = (order: DateOrder) =>
    cells.filter((cell) => readBankDate(cell, order) !== null).length;
  return orders.reduce(
    (best, order) => (fits(order) > fits(best) ? order : best),
    'YMD' as DateOrder,
  );
}

/** "1.234,56" and "1 234,56" write the decimals after a comma. */
export function guessDecimal(cells: readonly string[]): BankMapping['decimal'] {
  return cells.some(
    (cell) => /\d,\d{1,2}\s*\)?-?$/.test(cell.trim()) && !/\.\d{1,2}\s*\)?-?$/.test(cell.trim()),
  )
    ? ','
    : '.';
}

/** The file's bytes as base64, as the server takes them. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary);
}
