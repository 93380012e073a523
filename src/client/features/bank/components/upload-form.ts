import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Currency } from '../../../../shared/money.ts';
import { bankUploadFormSchema, type BankMapping } from '../../../../shared/schemas/bank.ts';
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

/** An empty step 1: no file, the owner's main currency, a header row and no column chosen. */
function emptyUploadForm(currency: Currency): UploadForm {
  return {
    accountLabel: '',
    currency,
    file: null,
    encoding: 'utf-8',
    skipRows: 1,
    dateOrder: 'YMD',
    decimal: '.',
    columns: {
      date: null,
      description: null,
      amount: null,
      credit: null,
      debit: null,
      reference: null,
      balance: null,
    },
    rememberedAt: null,
  };
}

/**
 * Step 1's form, checked by the shared schema; its problems stay until the next submit (or a new
 * file). The page holds it, as step 1 is not shown while the lines are reviewed.
 */
export function useUploadForm(mainCurrency: Currency) {
  return useForm<UploadForm>({
    // Raw: the values passed on keep the file's bytes and rows; the schema checks its format.
    resolver: zodResolver(bankUploadFormSchema, undefined, { raw: true }) as Resolver<UploadForm>,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: emptyUploadForm(mainCurrency),
  });
}
