import { useEffect } from 'react';
import type { ApiAnswer, apiRoutes } from '../../../../shared/api-routes.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
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
  workbookRows,
  type Encoding,
} from '../statement-file.ts';
import type { useUploadForm } from './statement-upload.tsx';
import type { ChosenFile, UploadForm } from './upload-form.ts';

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
  const { t } = useI18n();
  const { getValues, setValue, setError, clearErrors } = upload;
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
    if (format === 'xlsx') {
      const read = await workbookRows(bytes, rowsRead);
      if ('problem' in read) {
        setValue('file', null);
        setError('file', {
          type: 'format',
          message: read.problem === 'old-xls' ? t('bank.file.old-xls') : t('bank.file.not-xlsx'),
        });
        return;
      }
      chooseRows({ name: chosen.name, bytes, format, rows: read.rows, clean: true }, 'utf-8');
      return;
    }
    if (format !== 'csv') {
      update({
        file: { name: chosen.name, bytes, format, rows: [], clean: true },
        rememberedAt: null,
      });
      return;
    }
    const encoding = guessEncoding(bytes);
    const decoded = decodeForDisplay(bytes, encoding);
    const file = { name: chosen.name, bytes, format, clean: decoded.clean };
    chooseRows({ ...file, rows: firstRows(decoded.text, rowsRead) }, encoding);
  };

  /** A CSV file's or a workbook's rows: the layout remembered for them, or one guessed. */
  const chooseRows = (file: ChosenFile, encoding: Encoding) => {
    const found = findLayout(file.rows, layouts?.layouts ?? []);
    if (found) {
      const { mapping } = found.layout;
      let chosen = file;
      if (file.format === 'csv' && mapping.encoding !== encoding) {
        const decoded = decodeForDisplay(file.bytes, mapping.encoding);
        chosen = { ...file, rows: firstRows(decoded.text, rowsRead), clean: decoded.clean };
      }
      update({
        file: chosen,
        encoding: file.format === 'csv' ? mapping.encoding : encoding,
        skipRows: mapping.skipRows,
        dateOrder: mapping.dateOrder,
        decimal: mapping.decimal,
        columns: columnsOf(mapping),
        rememberedAt: found.layout.updatedAt,
      });
      return;
    }
    update({ file, encoding, ...guessHabits(file.rows), rememberedAt: null });
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
