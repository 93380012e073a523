import { useId } from 'react';
import { useForm, useWatch, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { currencies, currencyLabel, type Currency } from '../../../../shared/money.ts';
import { readBankDate } from '../../../../shared/dates.ts';
import {
  bankFileMaxBytes,
  bankLabelMaxLength,
  bankUploadFormSchema,
  type BankMapping,
} from '../../../../shared/schemas/bank.ts';
import { ColumnMapping } from '../../../components/column-mapping.tsx';
import { ScrollRegion } from '../../../components/scroll-region.tsx';
import { dayText } from '../../../components/formats.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import {
  bankFields,
  headerRow,
  type ColumnChoice,
  type Encoding,
  type StatementFormat,
} from '../statement-file.ts';
import { useBankTexts } from './bank-texts.ts';

/** The statement chosen: its bytes as read, and its first rows in the encoding chosen. */
interface ChosenFile {
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

/** Where a problem is shown: a field's, or the form's own (`root.server`) above the fields. */
type ProblemPlace = 'file' | 'accountLabel' | 'columns' | 'form';

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

const shownRows = 8;

export function StatementUpload({
  upload,
  accounts,
  busy,
  onFile,
  onEncoding,
  onSubmit,
}: {
  upload: UseFormReturn<UploadForm>;
  accounts: readonly { label: string; currency: Currency }[];
  busy: boolean;
  onFile: (file: File) => void;
  onEncoding: (encoding: Encoding) => void;
  onSubmit: (values: UploadForm) => Promise<void>;
}) {
  const { t, message, format } = useI18n();
  const texts = useBankTexts();
  const id = useId();
  const { register, setValue, setError, handleSubmit, control } = upload;
  const form = useWatch({ control }) as UploadForm;
  const { errors } = upload.formState;
  const problems: Partial<Record<ProblemPlace, string>> = {
    file: errors.file?.message,
    accountLabel: errors.accountLabel?.message,
    columns: errors.columns?.message,
    form: errors.root?.server?.message,
  };
  const file = form.file;
  const csv = file?.format === 'csv';
  const header = file ? (headerRow(file.rows, form.skipRows) ?? []) : [];
  const width = Math.max(header.length, ...(file?.rows.map((row) => row.length) ?? [0]));
  const columnNames = Array.from(
    { length: width },
    (_, index) => header[index]?.trim() || t('columns.unnamed', { number: index + 1 }),
  );
  const mappedAs = new Map<number, string>();
  for (const field of bankFields) {
    const column = form.columns[field];
    if (column !== null && !mappedAs.has(column)) mappedAs.set(column, texts.field[field]);
  }
  const sample = file?.rows.slice(form.skipRows, form.skipRows + shownRows) ?? [];
  const firstData = sample[0];
  const dateCell =
    form.columns.date === null ? undefined : firstData?.[form.columns.date]?.trim() || undefined;
  const readDate = dateCell === undefined ? null : readBankDate(dateCell, form.dateOrder);
  const longDay = new Intl.DateTimeFormat(format.intlLocale, {
    dateStyle: 'long',
    timeZone: 'UTC',
  });

  const submit = handleSubmit(onSubmit);
  // The shared schema's messages are in English; the server's arrive translated.
  const error = (name: ProblemPlace) =>
    problems[name] ? (
      <div id={`${id}-${name}-error`} className="invalid-feedback d-block">
        {message(problems[name])}
      </div>
    ) : null;
  const describedBy = (name: ProblemPlace, help?: string) =>
    [problems[name] ? `${id}-${name}-error` : null, help].filter(Boolean).join(' ') || undefined;

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-busy={busy}>
      {problems.form && (
        <div className="alert alert-danger py-2" role="alert">
          {message(problems.form)}
        </div>
      )}
      <fieldset disabled={busy}>
        <div className="row g-3 mb-3">
          <div className="col-12 col-md-7">
            <label htmlFor={`${id}-account`} className="form-label">
              {t('bank.account.label')}
            </label>
            <input
              id={`${id}-account`}
              className={`form-control${problems.accountLabel ? ' is-invalid' : ''}`}
              list={`${id}-accounts`}
              maxLength={bankLabelMaxLength}
              autoComplete="off"
              aria-invalid={problems.accountLabel ? true : undefined}
              aria-describedby={describedBy('accountLabel', `${id}-account-help`)}
              {...register('accountLabel', {
                onChange: (event: { target: HTMLInputElement }) => {
                  const label = event.target.value.trim();
                  const known = accounts.find((account) => account.label === label);
                  if (known) setValue('currency', known.currency);
                },
              })}
            />
            <datalist id={`${id}-accounts`}>
              {accounts.map((account) => (
                <option key={account.label} value={account.label} />
              ))}
            </datalist>
            <div id={`${id}-account-help`} className="form-text">
              {accounts.length > 0 ? t('bank.account.help-known') : t('bank.account.help')}
            </div>
            {error('accountLabel')}
          </div>
          <div className="col-12 col-md-5">
            <label htmlFor={`${id}-currency`} className="form-label">
              {t('bank.currency.label')}
            </label>
            <select
              id={`${id}-currency`}
              className="form-select"
              aria-describedby={`${id}-currency-help`}
              {...register('currency')}
            >
              {currencies.map((currency) => (
                <option key={currency} value={currency}>
                  {currencyLabel[currency]}
                </option>
              ))}
            </select>
            <div id={`${id}-currency-help`} className="form-text">
              {t('bank.currency.help')}
            </div>
          </div>
        </div>

        <div className="mb-3">
          <label htmlFor={`${id}-file`} className="form-label">
            {t('bank.file.label')}
          </label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".csv,.txt,.ofx,.qfx,.xml,text/csv"
            className={`form-control${problems.file ? ' is-invalid' : ''}`}
            aria-invalid={problems.file ? true : undefined}
            aria-describedby={describedBy('file', `${id}-file-help`)}
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              if (!chosen) return;
              // The server's limit, said before the file is read or sent.
              if (chosen.size > bankFileMaxBytes) {
                event.target.value = '';
                setValue('file', null);
                setError('file', {
                  type: 'size',
                  message: t('bank.file.too-large', {
                    size: format.number(bankFileMaxBytes / (1024 * 1024)),
                  }),
                });
                return;
              }
              onFile(chosen);
            }}
          />
          <div id={`${id}-file-help`} className="form-text">
            {file ? t('bank.file.chosen', { name: file.name }) : t('bank.file.help')}
          </div>
          {error('file')}
        </div>

        {file && !csv && (
          <p className="alert alert-info py-2" role="status">
            {file.format === 'ofx' ? t('bank.format.ofx') : t('bank.format.camt053')}
          </p>
        )}

        {file && csv && (
          <>
            {form.rememberedAt && (
              <p className="alert alert-success py-2" role="status">
                {t('bank.layout.remembered', {
                  day: dayText(form.rememberedAt.slice(0, 10), format),
                })}
              </p>
            )}
            <div className="row g-3 mb-3">
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
                invalid={problems.columns ? { amount: message(problems.columns) } : {}}
                columnClassName="col-6 col-md-4 col-lg-3"
                onChange={(field, column) => {
                  const columns = { ...form.columns, [field]: column };
                  // One signed amount, or credit and debit columns: choosing one clears the other.
                  if (field === 'amount' && column !== null) {
                    columns.credit = null;
                    columns.debit = null;
                  }
                  if ((field === 'credit' || field === 'debit') && column !== null)
                    columns.amount = null;
                  setValue('columns', columns);
                  setValue('rememberedAt', null);
                }}
              />
            </fieldset>

            <ScrollRegion label={t('bank.sample.label')} className="mb-3 border rounded">
              <table className="table table-sm mb-0 bank-sample">
                <caption className="px-2 small">
                  {t('bank.sample.caption', { count: sample.length })}
                </caption>
                <thead>
                  <tr>
                    {columnNames.map((name, index) => (
                      <th key={index} scope="col" className="text-nowrap">
                        {name}
                        {mappedAs.has(index) && (
                          <span className="badge text-bg-primary ms-1">{mappedAs.get(index)}</span>
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {sample.map((row, index) => (
                    <tr key={index}>
                      {columnNames.map((_, column) => (
                        <td key={column} className="text-nowrap">
                          {row[column] ?? ''}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          </>
        )}

        <button type="submit" className="btn btn-primary" disabled={!file}>
          {busy ? t('bank.reading') : t('bank.read')}
        </button>
      </fieldset>
    </form>
  );
}
