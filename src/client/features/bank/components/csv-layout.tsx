import type { UseFormReturn } from 'react-hook-form';
import { readBankDate } from '../../../../shared/dates.ts';
import { ColumnMapping } from '../../../components/column-mapping.tsx';
import { dayText } from '../../../components/formats.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { bankFields, headerRow, type Encoding } from '../statement-file.ts';
import { useBankTexts } from './bank-texts.ts';
import { CsvSample } from './csv-sample.tsx';
import type { ChosenFile, UploadForm } from './upload-form.ts';

const shownRows = 8;

/**
 * A CSV statement's layout: its encoding, the rows before the data, the date order and the
 * decimal mark, which column holds what, and a sample of its rows read that way.
 */
export function CsvLayout({
  id,
  upload,
  form,
  file,
  columnsProblem,
  onEncoding,
}: {
  /** The form's id, that the fields' own ids start with. */
  id: string;
  upload: UseFormReturn<UploadForm>;
  form: UploadForm;
  file: ChosenFile;
  columnsProblem: string | undefined;
  onEncoding: (encoding: Encoding) => void;
}) {
  const { t, message, format } = useI18n();
  const texts = useBankTexts();
  const { register, setValue } = upload;
  const header = headerRow(file.rows, form.skipRows) ?? [];
  const width = Math.max(header.length, ...file.rows.map((row) => row.length));
  const columnNames = Array.from(
    { length: width },
    (_, index) => header[index]?.trim() || t('columns.unnamed', { number: index + 1 }),
  );
  const mappedAs = new Map<number, string>();
  for (const field of bankFields) {
    const column = form.columns[field];
    if (column !== null && !mappedAs.has(column)) mappedAs.set(column, texts.field[field]);
  }
  const sample = file.rows.slice(form.skipRows, form.skipRows + shownRows);
  const firstData = sample[0];
  const dateCell =
    form.columns.date === null ? undefined : firstData?.[form.columns.date]?.trim() || undefined;
  const readDate = dateCell === undefined ? null : readBankDate(dateCell, form.dateOrder);
  const longDay = new Intl.DateTimeFormat(format.intlLocale, {
    dateStyle: 'long',
    timeZone: 'UTC',
  });

  return (
    <>
      {form.rememberedAt && (
        <p className="alert alert-success py-2" role="status">
          {t('bank.layout.remembered', {
            day: dayText(form.rememberedAt.slice(0, 10), format),
          })}
        </p>
      )}
      <div className="row g-3 mb-3">
        {/* A workbook keeps its own text: no encoding to choose. */}
        {file.format === 'csv' && (
          <div className="col-6 col-md-3">
            <label htmlFor={`${id}-encoding`} className="form-label small mb-1">
              {t('bank.encoding.label')}
            </label>
            <select
              id={`${id}-encoding`}
              className="form-select form-select-sm"
              {...register('encoding', {
                onChange: (event: { target: HTMLSelectElement }) =>
                  onEncoding(event.target.value as Encoding),
              })}
            >
              <option value="utf-8">{t('bank.encoding.utf-8')}</option>
              <option value="euc-kr">{t('bank.encoding.euc-kr')}</option>
            </select>
          </div>
        )}
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-skip`} className="form-label small mb-1">
            {t('bank.skip-rows.label')}
          </label>
          <input
            id={`${id}-skip`}
            type="number"
            min={0}
            max={50}
            className="form-control form-control-sm"
            value={form.skipRows}
            // Held as a whole number from 0 to 50 while typed: the sample follows it.
            onChange={(event) =>
              setValue(
                'skipRows',
                Math.min(50, Math.max(0, Math.trunc(Number(event.target.value) || 0))),
              )
            }
          />
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-order`} className="form-label small mb-1">
            {t('bank.date-order.label')}
          </label>
          <select
            id={`${id}-order`}
            className="form-select form-select-sm"
            aria-describedby={`${id}-order-effect`}
            {...register('dateOrder')}
          >
            <option value="YMD">{texts.dateOrder.YMD}</option>
            <option value="DMY">{texts.dateOrder.DMY}</option>
            <option value="MDY">{texts.dateOrder.MDY}</option>
          </select>
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor={`${id}-decimal`} className="form-label small mb-1">
            {t('bank.decimal.label')}
          </label>
          <select
            id={`${id}-decimal`}
            className="form-select form-select-sm"
            {...register('decimal')}
          >
            <option value=".">{t('bank.decimal.point')}</option>
            <option value=",">{t('bank.decimal.comma')}</option>
          </select>
        </div>
      </div>
      <p id={`${id}-order-effect`} className="small mb-3" aria-live="polite">
        {dateCell === undefined
          ? t('bank.date-order.effect-none', { order: texts.dateOrder[form.dateOrder] })
          : readDate === null
            ? t('bank.date-order.effect-unread', {
                order: texts.dateOrder[form.dateOrder],
                cell: dateCell,
              })
            : t('bank.date-order.effect', {
                order: texts.dateOrder[form.dateOrder],
                cell: dateCell,
                day: longDay.format(new Date(`${readDate}T00:00:00Z`)),
              })}
      </p>
      {!file.clean && (
        <p className="alert alert-warning py-2" role="status">
          {t('bank.encoding.unclean')}
        </p>
      )}

      <fieldset className="mb-3">
        <legend className="h6">{t('bank.columns.legend')}</legend>
        <p className="small text-body-secondary mb-2">{t('bank.columns.help')}</p>
        <ColumnMapping
          idPrefix={`${id}-map`}
          fields={bankFields}
          labels={texts.field}
          header={columnNames}
          mapping={form.columns}
          invalid={columnsProblem ? { amount: message(columnsProblem) } : {}}
          columnClassName="col-6 col-md-4 col-lg-3"
          onChange={(field, column) => {
            const columns = { ...form.columns, [field]: column };
            // One signed amount, or credit and debit columns: choosing one clears the other.
            if (field === 'amount' && column !== null) {
              columns.credit = null;
              columns.debit = null;
            }
            if ((field === 'credit' || field === 'debit') && column !== null) columns.amount = null;
            setValue('columns', columns);
            setValue('rememberedAt', null);
          }}
        />
      </fieldset>
      <CsvSample columnNames={columnNames} mappedAs={mappedAs} sample={sample} />
    </>
  );
}
