import type { BankMapping } from './schemas/bank.ts';

// A spreadsheet's cell as the statement's text: the server reads a workbook's rows through the
// same column mapping as a CSV file's, and the page shows the same text, so a number or a date
// is written here as the owner's habits for the file say (decimal mark, date order).

/** What a spreadsheet reader gives for a cell. */
export type SheetValue = string | number | boolean | Date | null | undefined;

const two = (value: number) => String(value).padStart(2, '0');

export function sheetCellText(
  value: SheetValue,
  habits: Pick<BankMapping, 'dateOrder' | 'decimal'>,
): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return '';
    const [year, month, day] = [
      String(value.getUTCFullYear()),
      two(value.getUTCMonth() + 1),
      two(value.getUTCDate()),
    ];
    if (habits.dateOrder === 'DMY') return `${day}/${month}/${year}`;
    if (habits.dateOrder === 'MDY') return `${month}/${day}/${year}`;
    return `${year}-${month}-${day}`;
  }
  if (typeof value === 'number') {
    // A workbook keeps 1234.56 as the nearest binary number (1234.5599999999999).
    const text = String(Number(value.toFixed(6)));
    return habits.decimal === ',' ? text.replace('.', ',') : text;
  }
  return String(value);
}
