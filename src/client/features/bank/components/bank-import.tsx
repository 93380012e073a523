import { useEffect, useMemo, useRef, useState } from 'react';
import { NavigationType, useNavigationType } from 'react-router';
import type { Currency } from '../../../../shared/money.ts';
import { bankLayoutKey } from '../../../../shared/bank-layout.ts';
import type { BankLayout, PreviewLine } from '../../../../shared/schemas/bank.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useBankLayouts } from '../api/bank-layouts.ts';
import { useConfirmLines } from '../api/confirm-lines.ts';
import { usePreviewStatement, type PreviewBody } from '../api/preview-statement.ts';
import { useUndoBatch } from '../api/undo-batch.ts';
import {
  allocationsOf,
  confirmedLine,
  initialChoice,
  type ChoiceProblem,
  type ConfidenceFilter,
  type LineChoice,
} from '../review.ts';
import {
  columnsOf,
  decodeForDisplay,
  findLayout,
  firstRows,
  guessBankColumns,
  guessDateOrder,
  guessDecimal,
  guessEncoding,
  headerRow,
  statementFormat,
  toBankMapping,
  toBase64,
  type Encoding,
} from '../statement-file.ts';
import { ImportResult, type Outcome } from './import-result.tsx';
import { ReviewTable } from './review-table.tsx';
import { StatementUpload, useUploadForm, type UploadForm } from './statement-upload.tsx';
import { PayerRules } from './payer-rules.tsx';

type ClientName = Pick<Client, 'id' | 'firstName' | 'lastName'>;

// Rows read for the page: the sample shown, and the guesses of the header and the date order.
const rowsRead = 40;

/** What was sent for the preview: the confirm sends the same account, and the layout. */
interface Previewed {
  accountLabel: string;
  currency: Currency;
  lines: PreviewLine[];
  skipped: number;
  /** Lines identical to another of the file, kept as separate payments. */
  twins: number;
  layout: BankLayout | undefined;
}

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

const resultKey = 'balance.bank.result';
interface SavedResult {
  outcome: Outcome;
  undone: number | null;
}

function savedResult(): SavedResult | null {
  try {
    const text = sessionStorage.getItem(resultKey);
    return text === null ? null : (JSON.parse(text) as SavedResult);
  } catch {
    return null;
  }
}

function saveResult(result: SavedResult | null) {
  try {
    if (result) sessionStorage.setItem(resultKey, JSON.stringify(result));
    else sessionStorage.removeItem(resultKey);
  } catch {
    // Storage refused (private mode): the result is not shown again after Back.
  }
}

/** Payments from the bank: the statement and its columns, then who paid each line, then undo. */
export function BankImport({ mainCurrency }: { mainCurrency: Currency }) {
  const { t, message, format } = useI18n();
  const layouts = useBankLayouts();
  const preview = usePreviewStatement();
  const confirm = useConfirmLines();
  const undo = useUndoBatch();
  const heading = useRef<HTMLHeadingElement>(null);

  const upload = useUploadForm(mainCurrency);
  const { getValues, setValue, setError, clearErrors } = upload;
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const [choices, setChoices] = useState<Map<string, LineChoice>>(new Map());
  const [filter, setFilter] = useState<ConfidenceFilter>('all');
  const [tried, setTried] = useState(false);
  const [confirmProblem, setConfirmProblem] = useState<string | null>(null);
  // The clients the preview suggested, and those found by a search since.
  const [clients, setClients] = useState<Map<string, ClientName>>(new Map());
  // Back from a client's page, the last import's result (and its undo) is shown again.
  const navigationType = useNavigationType();
  const [saved] = useState(() => (navigationType === NavigationType.Pop ? savedResult() : null));
  const [outcome, setOutcome] = useState<Outcome | null>(saved?.outcome ?? null);
  const [undone, setUndone] = useState<number | null>(saved?.undone ?? null);
  useEffect(() => {
    // Once undone, there is nothing left to come back to.
    saveResult(outcome && undone === null ? { outcome, undone } : null);
  }, [outcome, undone]);
  const [undoProblem, setUndoProblem] = useState<string | null>(null);

  const accounts = layouts.data?.accounts ?? [];
  const step = outcome ? 'done' : previewed ? 'review' : 'upload';

  // The account imported last is the first choice, until the owner names one: most have one or two.
  const [latest] = accounts;
  const { dirtyFields } = upload.formState;
  const accountChosen = dirtyFields.accountLabel === true || dirtyFields.currency === true;
  useEffect(() => {
    if (!latest || accountChosen) return;
    upload.resetField('accountLabel', { defaultValue: latest.label });
    upload.resetField('currency', { defaultValue: latest.currency });
  }, [upload, latest, accountChosen]);

  // A new step replaces what had focus: the heading takes it, as on a new page.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    heading.current?.focus();
  }, [step]);

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
    const found = findLayout(rows, layouts.data?.layouts ?? []);
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

  /** Step 1 as the shared schema passed it: the account, and the CSV file's columns chosen. */
  const readStatement = async (shown: UploadForm) => {
    const file = shown.file;
    if (!file) return;
    const accountLabel = shown.accountLabel.trim();
    const csv = file.format === 'csv';
    const mapping = csv
      ? toBankMapping(shown.columns, {
          skipRows: shown.skipRows,
          dateOrder: shown.dateOrder,
          decimal: shown.decimal,
          encoding: shown.encoding,
        })
      : null;
    const header = csv ? headerRow(file.rows, shown.skipRows) : null;
    const body: PreviewBody = {
      accountLabel,
      currency: shown.currency,
      format: file.format,
      file: toBase64(file.bytes),
      ...(mapping && { mapping }),
    };
    try {
      const answer = await preview.mutateAsync(body);
      setPreviewed({
        accountLabel,
        currency: shown.currency,
        lines: answer.lines,
        skipped: answer.skipped,
        twins: answer.twins,
        layout: mapping && header ? { key: bankLayoutKey(header), mapping } : undefined,
      });
      setClients(new Map(answer.clients.map((client) => [client.id, client])));
      setChoices(new Map(answer.lines.map((line) => [line.id, initialChoice(line)])));
      setFilter('all');
      setTried(false);
      setConfirmProblem(null);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      let shownOnField = false;
      for (const [field, text] of Object.entries(error.fields)) {
        const name =
          field === 'file' || field === 'format'
            ? 'file'
            : field === 'accountLabel'
              ? 'accountLabel'
              : field.startsWith('mapping')
                ? 'columns'
                : null;
        if (name === null) continue;
        setError(name, { type: 'server', message: text });
        shownOnField = true;
      }
      if (!shownOnField) setError('root.server', { type: 'server', message: error.message });
    }
  };

  const lineProblems = useMemo(() => {
    const found = new Map<string, ChoiceProblem>();
    if (!previewed || !tried) return found;
    for (const line of previewed.lines) {
      const choice = choices.get(line.id);
      if (!choice?.selected || line.alreadyRecorded) continue;
      const check = allocationsOf(line, choice, previewed.currency);
      if (!check.ok) found.set(line.id, check.problem);
    }
    return found;
  }, [previewed, choices, tried]);

  const selected = previewed
    ? previewed.lines.filter((line) => !line.alreadyRecorded && choices.get(line.id)?.selected)
    : [];

  const record = async () => {
    if (!previewed) return;
    setTried(true);
    setConfirmProblem(null);
    const lines = [];
    let stopped = 0;
    for (const line of selected) {
      const check = allocationsOf(
        line,
        choices.get(line.id) ?? initialChoice(line),
        previewed.currency,
      );
      if (check.ok) lines.push({ line, allocations: check.allocations });
      else stopped += 1;
    }
    if (stopped > 0) {
      setFilter('all');
      setConfirmProblem(t('bank.confirm.fix', { count: stopped }));
      return;
    }
    if (lines.length === 0) return;
    try {
      const confirmed = await confirm.mutateAsync({
        accountLabel: previewed.accountLabel,
        currency: previewed.currency,
        lines: lines.map(({ line, allocations }) => confirmedLine(line, allocations)),
        ...(previewed.layout && { layout: previewed.layout }),
      });
      const recordedNow = new Set(confirmed.recorded.map((line) => line.lineId));
      const paid = new Map<string, Outcome['paid'][number]>();
      for (const { line, allocations } of lines) {
        if (!recordedNow.has(line.id)) continue;
        for (const part of allocations) {
          const sum = paid.get(part.clientId) ?? {
            // Every client chosen was suggested or found by a search, so named.
            client: clients.get(part.clientId) ?? {
              id: part.clientId,
              firstName: '',
              lastName: '',
            },
            amount: 0,
            payments: 0,
          };
          sum.amount += part.amount;
          sum.payments += 1;
          paid.set(part.clientId, sum);
        }
      }
      setUndone(null);
      setUndoProblem(null);
      setOutcome({ confirmed, paid: [...paid.values()], currency: previewed.currency });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const [field] = Object.keys(error.fields);
      const index = field === undefined ? null : /^lines\.(\d+)\./.exec(field)?.[1];
      const line = index === null || index === undefined ? undefined : lines[Number(index)]?.line;
      setConfirmProblem(
        line
          ? t('bank.confirm.line-refused', {
              line: line.line,
              problem: message(error.fields[field as string] ?? error.message),
            })
          : message(error.message),
      );
    }
  };

  const undoBatch = async () => {
    const batchId = outcome?.confirmed.batchId;
    if (!batchId) return;
    setUndoProblem(null);
    try {
      setUndone((await undo.mutateAsync(batchId)).voided);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setUndoProblem(message(error.message));
    }
  };

  const startAgain = () => {
    setOutcome(null);
    setPreviewed(null);
    setChoices(new Map());
    setValue('file', null);
    setValue('rememberedAt', null);
  };

  const selectHigh = () =>
    setChoices((current) => {
      const next = new Map(current);
      for (const line of previewed?.lines ?? []) {
        const choice = next.get(line.id);
        const best = line.suggestions[0];
        if (choice && !line.alreadyRecorded && best?.confidence === 'high')
          next.set(line.id, {
            selected: true,
            split: false,
            parts: [{ clientId: best.clientId, amountText: '' }],
          });
      }
      return next;
    });

  const total = selected.reduce((sum, line) => sum + line.amount, 0);
  const recordedBefore = previewed?.lines.filter((line) => line.alreadyRecorded).length ?? 0;
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-xl-11">
        <div className="card">
          <div className="card-header">
            <h1 ref={heading} tabIndex={-1} className="h5 mb-0">
              {t('bank.heading')}
            </h1>
            <p className="small text-body-secondary mb-0">
              {step === 'upload'
                ? t('bank.step.upload')
                : step === 'review'
                  ? t('bank.step.review')
                  : t('bank.step.done')}
            </p>
          </div>
          <div className="card-body">
            {step === 'upload' && (
              <StatementUpload
                upload={upload}
                accounts={accounts}
                busy={preview.isPending}
                onFile={(file) => void chooseFile(file)}
                onEncoding={changeEncoding}
                onSubmit={readStatement}
              />
            )}

            {step === 'review' && previewed && (
              <section aria-label={t('bank.step.review')}>
                <p role="status">
                  {t('bank.review.summary', {
                    count: previewed.lines.length,
                    before: recordedBefore,
                    skipped: previewed.skipped,
                    account: previewed.accountLabel,
                  })}
                </p>
                {previewed.twins > 0 && (
                  <p className="alert alert-warning py-2" role="status">
                    {t('bank.review.twins', { count: format.number(previewed.twins) })}
                  </p>
                )}
                {previewed.lines.length > 0 && (
                  <ReviewTable
                    lines={previewed.lines}
                    choices={choices}
                    currency={previewed.currency}
                    clients={clients}
                    filter={filter}
                    problems={lineProblems}
                    onFilter={setFilter}
                    onChoice={(lineId, choice) =>
                      setChoices((current) => new Map(current).set(lineId, choice))
                    }
                    onClientNamed={(client) =>
                      setClients((current) => new Map(current).set(client.id, client))
                    }
                  />
                )}
                {confirmProblem && (
                  <p className="alert alert-danger py-2" role="alert">
                    {confirmProblem}
                  </p>
                )}
                <div className="d-flex flex-wrap gap-2 align-items-center">
                  <button
                    type="button"
                    className="btn btn-outline-primary"
                    onClick={selectHigh}
                    disabled={
                      !previewed.lines.some(
                        (line) =>
                          !line.alreadyRecorded && line.suggestions[0]?.confidence === 'high',
                      )
                    }
                  >
                    {t('bank.review.select-high')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-primary"
                    disabled={selected.length === 0 || confirm.isPending}
                    onClick={() => void record()}
                  >
                    {confirm.isPending
                      ? t('bank.confirm.recording')
                      : t('bank.confirm.button', {
                          count: selected.length,
                          total:
                            selected.length === 0 ? '' : format.money(total, previewed.currency),
                        })}
                  </button>
                  <button
                    type="button"
                    className="btn btn-outline-secondary"
                    onClick={() => setPreviewed(null)}
                  >
                    {t('bank.review.back')}
                  </button>
                </div>
              </section>
            )}

            {step === 'done' && outcome && (
              <ImportResult
                outcome={outcome}
                undone={undone}
                undoing={undo.isPending}
                undoProblem={undoProblem}
                onUndo={() => void undoBatch()}
                onAnother={startAgain}
              />
            )}
          </div>
        </div>
        {step === 'upload' && <PayerRules />}
      </div>
    </div>
  );
}
