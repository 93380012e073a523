import type { Currency } from '../../../../shared/money.ts';
import type { BankMapping } from '../../../../shared/schemas/bank.ts';
import type { ColumnChoice, Encoding, StatementFormat } from '../statement-file.ts';

/** The statement chosen: its bytes as read, and its first rows in the encoding chosen. */
export interface ChosenFile {
  name: string;
  bytes: Uint8Array;
  format: StatementFormat;
  rows: string[][];
  /** False when some bytes are not characters of the encoding chosen. */
  clean: boolean;
}

/** Everything step 1 holds; its form is kept by the page, so going back or a refusal loses nothing. */
export interface UploadForm {
  accountLabel: string;
  currency: Currency;
  file: ChosenFile | null;
  encoding: Encoding;
  skipRows: number;
  dateOrder: BankMapping['dateOrder'];
  decimal: BankMapping['decimal'];
  columns: ColumnChoice;
  /** When the mapping was filled in from a layout remembered (its last use). */
  rememberedAt: string | null;
}
