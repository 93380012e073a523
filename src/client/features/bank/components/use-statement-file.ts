import { useEffect } from 'react';
import type { ApiAnswer, apiRoutes } from '../../../../shared/api-routes.ts';
import {
  columnsOf,
  decodeForDisplay,
  findLayout,
  firstRows,
  guessBankColumns,
  guessDateOrder,
  guessDecimal,
  guessEncoding,
  statementFormat,
  type Encoding,
} from '../statement-file.ts';
import type { useUploadForm } from './statement-upload.tsx';
import type { UploadForm } from './upload-form.ts';

// Rows read for the page: the sample shown, and the guesses of the header and the date order.
const rowsRead = 40;

/** The header, the date order and the decimal mark of a file no layout is remembered for. */
function guessHabits(rows: string[][]) {
  const headerIndex = rows.slice(0, 6).findIndex((row) => {
    const guess = guessBankColumns(row);
    return guess.date !== null && (guess.amount !== null || guess.credit !== null);
  });
  const skipRows = headerIndex >= 0 ? headerIndex + 1 : 1;
  const columns = guessBankColumns(rows[skipRows - 1] ?? []);
  const data = rows.slice(skipRows);
  const cells = (column: number | null) =>
    column === null ? [] : data.map((row) => row[column] ?? '').filter((cell) => cell !== '');
  return {
    skipRows,
    columns,
    dateOrder: guessDateOrder(cells(columns.date)),
    decimal: guessDecimal([...cells(columns.amount), ...cells(columns.credit)]),
  };
}

/**
 * The upload form's first step: the account imported last offered first, and a file chosen
 * read for the page (its rows in its encoding, and the columns of a layout remembered for it,
 * or guessed).
 */
export function useStatementFile(
  upload: ReturnType<typeof useUploadForm>,
  layouts: ApiAnswer<typeof apiRoutes.bankLayouts> | undefined,
) {
  const { getValues, setValue, clearErrors } = upload;
  const accounts = layouts?.accounts ?? [];

  // The account imported last is the first choice, until the owner names one: most have one or two.
  const [latest] = accounts;
  const { dirtyFields } = upload.formState;
  const accountChosen = dirtyFields.accountLabel === true || dirtyFields.currency === true;
  useEffect(() => {
    if (!latest || accountChosen) return;
    upload.resetField('accountLabel', { defaultValue: latest.label });
    upload.resetField('currency', { defaultValue: latest.currency });
  }, [upload, latest, accountChosen]);

  /** Values the page works out (from the file, a layout remembered or a guess) put on the form. */
  const update = (patch: Partial<UploadForm>) => {
    for (const name of Object.keys(patch) as (keyof UploadForm)[])
      setValue(name, patch[name] as never);
  };

  const chooseFile = async (chosen: File) => {
    clearErrors();
    const bytes = new Uint8Array(await chosen.arrayBuffer());
    const format = statementFormat(chosen.name, bytes);
    if (format !== 'csv') {
      update({
        file: { name: chosen.name, bytes, format, rows: [], clean: true },
        rememberedAt: null,
      });
      return;
    }
    let encoding = guessEncoding(bytes);
    let decoded = decodeForDisplay(bytes, encoding);
    let rows = firstRows(decoded.text, rowsRead);
    const found = findLayout(rows, layouts?.layouts ?? []);
    if (found) {
      const { mapping } = found.layout;
      if (mapping.encoding !== encoding) {
        encoding = mapping.encoding;
        decoded = decodeForDisplay(bytes, encoding);
        rows = firstRows(decoded.text, rowsRead);
      }
      update({
        file: { name: chosen.name, bytes, format, rows, clean: decoded.clean },
        encoding,
        skipRows: mapping.skipRows,
        dateOrder: mapping.dateOrder,
        decimal: mapping.decimal,
        columns: columnsOf(mapping),
        rememberedAt: found.layout.updatedAt,
      });
      return;
    }
    update({
      file: { name: chosen.name, bytes, format, rows, clean: decoded.clean },
      encoding,
      ...guessHabits(rows),
      rememberedAt: null,
    });
  };

  // The encoding itself is the select's; the rows shown are read again in it.
  const changeEncoding = (encoding: Encoding) => {
    const file = getValues('file');
    if (!file) return;
    const decoded = decodeForDisplay(file.bytes, encoding);
    const rows = firstRows(decoded.text, rowsRead);
    setValue('file', { ...file, rows, clean: decoded.clean });
  };

  return { accounts, chooseFile, changeEncoding };
}
