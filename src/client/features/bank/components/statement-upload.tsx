import { useId } from 'react';
import { useForm, useWatch, type Resolver, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { currencies, currencyLabel, type Currency } from '../../../../shared/money.ts';
import {
  bankFileMaxBytes,
  bankLabelMaxLength,
  bankUploadFormSchema,
  mappedFormat,
} from '../../../../shared/schemas/bank.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import type { Encoding } from '../statement-file.ts';
import { CsvLayout } from './csv-layout.tsx';
import type { UploadForm } from './upload-form.ts';

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
      counterparty: null,
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

/** Where a problem is shown: a field's, or the form's own (`root.server`) above the fields. */
type ProblemPlace = 'file' | 'accountLabel' | 'columns' | 'form';

/** Step 1: the account, its currency and the statement's file (and a CSV file's layout). */
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
  // A CSV file or a workbook: read through the columns chosen.
  const csv = mappedFormat(file?.format);

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
            accept=".csv,.txt,.xlsx,.xls,.ofx,.qfx,.xml,text/csv"
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
          <CsvLayout
            id={id}
            upload={upload}
            form={form}
            file={file}
            columnsProblem={problems.columns}
            onEncoding={onEncoding}
          />
        )}

        <button type="submit" className="btn btn-primary" disabled={!file}>
          {busy ? t('bank.reading') : t('bank.read')}
        </button>
      </fieldset>
    </form>
  );
}
