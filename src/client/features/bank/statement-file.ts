import Papa from 'papaparse';
import { bankLayoutKey } from '../../../shared/bank-layout.ts';
import { readBankDate } from '../../../shared/dates.ts';
import type { BankFormat, BankMapping } from '../../../shared/schemas/bank.ts';
import { sheetCellText, type SheetValue } from '../../../shared/sheet-cells.ts';

export type StatementFormat = BankFormat;
export type Encoding = BankMapping['encoding'];
export type DateOrder = BankMapping['dateOrder'];

/** What kind of statement a file is, by its name and then its first bytes. */
export function statementFormat(name: string, bytes: Uint8Array): StatementFormat {
  const start = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096));
  if (/\.(ofx|qfx)$/i.test(name) || /OFXHEADER|<OFX>/i.test(start)) return 'ofx';
  // A workbook is a zip (PK); an .xls is sent as one too, for the server to say what it is.
  if (/\.xlsx?$/i.test(name) || (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3))
    return 'xlsx';
  if (/camt\.053/i.test(start) && (/\.xml$/i.test(name) || /^\s*(\uFEFF)?</.test(start)))
    return 'camt053';
  return 'csv';
}

/** Excel's "Unicode text": UTF-16 with its byte order mark, which the server reads as such. */
const utf16Order = (bytes: Uint8Array) =>
  bytes[0] === 0xff && bytes[1] === 0xfe
    ? 'utf-16le'
    : bytes[0] === 0xfe && bytes[1] === 0xff
      ? 'utf-16be'
      : null;

/** UTF-8 when the bytes read as UTF-8, else the Korean banks' EUC-KR (CP949). */
export function guessEncoding(bytes: Uint8Array): Encoding {
  if (utf16Order(bytes)) return 'utf-8';
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
  const text = new TextDecoder(utf16Order(bytes) ?? encoding).decode(bytes);
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
  'counterparty',
] as const;
export type BankField = (typeof bankFields)[number];
export type ColumnChoice = Record<BankField, number | null>;

const words = (text: string) => text.split(' ');

// Header words of banks in English, Malay and Korean, written without spacing or punctuation;
// matched against a file's header, never shown. The first word a header has wins: a Korean
// export's 내용 (what the sender wrote) says who paid, its 적요 only "타행입금" (issue 57).
const headerWords: Record<BankField, string[]> = {
  date: [
    ...words(
      'date transactiondate postingdate bookingdate valuedate txndate tarikh tarikhtransaksi',
    ),
    ...words('거래일자 거래일 거래일시 일자 날짜'), // i18n-ignore: header words, not shown
  ],
  description: [
    ...words('내용 거래내용 기재내용 입금내용 받는분통장표시내용'), // i18n-ignore: header words, not shown
    ...words('transactiondescription description details transactiondetails particulars'),
    ...words('narrative memo payee text keterangan butiran perihal'),
    ...words('적요'), // i18n-ignore: header words, not shown
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
  counterparty: [
    ...words('보낸분 입금자 입금자명 보낸분받는분 받는분 의뢰인 거래처'), // i18n-ignore: header words, not shown
    ...words('counterparty payer payername sender remitter beneficiary pengirim namapembayar'),
  ],
};

/** A header cell as its words: "Transaction Description" and "TRANSACTION_DESCRIPTION" alike. */
const headerWord = (cell: string) => cell.toLowerCase().replace(/[^\p{L}]/gu, '');

/**
 * The columns guessed from a bank's header row: for each field the column of its first word
 * the header has. With no description column, the payer's column is the description.
 */
export function guessBankColumns(header: readonly string[]): ColumnChoice {
  const cells = header.map(headerWord);
  const columns = {} as ColumnChoice;
  for (const field of bankFields) {
    const word = headerWords[field].find((each) => cells.includes(each));
    columns[field] = word === undefined ? null : cells.indexOf(word);
  }
  if (columns.description === null) {
    columns.description = columns.counterparty;
    columns.counterparty = null;
  }
  if (columns.counterparty === columns.description) columns.counterparty = null;
  return columns;
}

/** The mapping the server takes, from the page's choices; null while one that it needs is missing. */
export function toBankMapping(
  columns: ColumnChoice,
  habits: Pick<BankMapping, 'skipRows' | 'dateOrder' | 'decimal' | 'encoding'>,
): BankMapping | null {
  const { date, description, amount, credit, debit, reference, balance, counterparty } = columns;
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
    ...optional('counterparty', counterparty),
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
    counterparty: mapping.counterparty ?? null,
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

/**
 * The first rows of an Excel workbook's first sheet as text, as the server reads them (dates
 * year first, numbers with a decimal point), or the problem to show; the reader is loaded only
 * when a workbook is chosen.
 */
export async function workbookRows(
  bytes: Uint8Array,
  count: number,
): Promise<{ rows: string[][] } | { problem: 'old-xls' | 'not-xlsx' }> {
  if (bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0)
    return { problem: 'old-xls' };
  try {
    const { readSheet } = await import('read-excel-file/browser');
    const rows = await readSheet(new Blob([bytes as Uint8Array<ArrayBuffer>]));
    // Blank rows left out, as for a CSV file: the rows skipped are counted without them.
    const text = rows.map((row) =>
      // Its types say `typeof Date` where the reader gives a Date.
      row.map((value) => sheetCellText(value as SheetValue, { dateOrder: 'YMD', decimal: '.' })),
    );
    return { rows: text.filter((row) => row.some((cell) => cell.trim() !== '')).slice(0, count) };
  } catch {
    return { problem: 'not-xlsx' };
  }
}
