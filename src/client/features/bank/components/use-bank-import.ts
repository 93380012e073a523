import { useEffect, useMemo, useReducer } from 'react';
import { NavigationType, useNavigationType } from 'react-router';
import { bankLayoutKey } from '../../../../shared/bank-layout.ts';
import { mappedFormat } from '../../../../shared/schemas/bank.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useConfirmLines } from '../api/confirm-lines.ts';
import { usePreviewStatement, type PreviewBody } from '../api/preview-statement.ts';
import { useUndoBatch } from '../api/undo-batch.ts';
import { bankImportReducer, initialBankImport, type SavedResult } from '../bank-import-state.ts';
import { allocationsOf, confirmedLine, initialChoice, type ChoiceProblem } from '../review.ts';
import { headerRow, toBankMapping, toBase64 } from '../statement-file.ts';
import type { Outcome } from './import-result.tsx';
import type { useUploadForm } from './statement-upload.tsx';
import type { UploadForm } from './upload-form.ts';

const resultKey = 'balance.bank.result';

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

/**
 * The bank import's steps (upload, review, done) and what moves between them: reading the
 * statement on the server, recording the lines chosen, undoing the batch. The state is one
 * reducer (bank-import-state.ts); this hook adds the calls and what the page works out.
 */
export function useBankImport(upload: ReturnType<typeof useUploadForm>) {
  const { t, message } = useI18n();
  const preview = usePreviewStatement();
  const confirm = useConfirmLines();
  const undo = useUndoBatch();
  // Back from a client's page, the last import's result (and its undo) is shown again.
  const navigationType = useNavigationType();
  const [state, dispatch] = useReducer(bankImportReducer, null, () =>
    initialBankImport(navigationType === NavigationType.Pop ? savedResult() : null),
  );
  const { previewed, choices, tried, outcome, undone, clients } = state;
  useEffect(() => {
    // Once undone, there is nothing left to come back to.
    saveResult(outcome && undone === null ? { outcome, undone } : null);
  }, [outcome, undone]);

  const step = outcome ? 'done' : previewed ? 'review' : 'upload';

  /** Step 1 as the shared schema passed it: the account, and the CSV file's columns chosen. */
  const readStatement = async (shown: UploadForm) => {
    const file = shown.file;
    if (!file) return;
    const accountLabel = shown.accountLabel.trim();
    const csv = mappedFormat(file.format);
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
      dispatch({
        type: 'previewed',
        previewed: {
          accountLabel,
          currency: shown.currency,
          lines: answer.lines,
          skipped: answer.skipped,
          twins: answer.twins,
          layout: mapping && header ? { key: bankLayoutKey(header), mapping } : undefined,
        },
        clients: answer.clients,
      });
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
        upload.setError(name, { type: 'server', message: text });
        shownOnField = true;
      }
      if (!shownOnField) upload.setError('root.server', { type: 'server', message: error.message });
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

  /** What the payments of the lines recorded come to per client, for the result's list. */
  const paidPerClient = (
    lines: { line: { id: string }; allocations: { clientId: string; amount: number }[] }[],
    recordedNow: Set<string>,
  ) => {
    const paid = new Map<string, Outcome['paid'][number]>();
    for (const { line, allocations } of lines) {
      if (!recordedNow.has(line.id)) continue;
      for (const part of allocations) {
        const sum = paid.get(part.clientId) ?? {
          // Every client chosen was suggested or found by a search, so named.
          client: clients.get(part.clientId) ?? { id: part.clientId, firstName: '', lastName: '' },
          amount: 0,
          payments: 0,
        };
        sum.amount += part.amount;
        sum.payments += 1;
        paid.set(part.clientId, sum);
      }
    }
    return [...paid.values()];
  };

  const record = async () => {
    if (!previewed) return;
    dispatch({ type: 'record-asked' });
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
      const problem = t('bank.confirm.fix', { count: stopped });
      dispatch({ type: 'record-refused', problem, showAll: true });
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
      const paid = paidPerClient(lines, recordedNow);
      dispatch({ type: 'recorded', outcome: { confirmed, paid, currency: previewed.currency } });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const [field] = Object.keys(error.fields);
      const index = field === undefined ? null : /^lines\.(\d+)\./.exec(field)?.[1];
      const line = index === null || index === undefined ? undefined : lines[Number(index)]?.line;
      const problem = line
        ? t('bank.confirm.line-refused', {
            line: line.line,
            problem: message(error.fields[field as string] ?? error.message),
          })
        : message(error.message);
      dispatch({ type: 'record-refused', problem, showAll: false });
    }
  };

  const undoBatch = async () => {
    const batchId = outcome?.confirmed.batchId;
    if (!batchId) return;
    dispatch({ type: 'undo-asked' });
    try {
      dispatch({ type: 'undone', voided: (await undo.mutateAsync(batchId)).voided });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      dispatch({ type: 'undo-refused', problem: message(error.message) });
    }
  };

  const startAgain = () => {
    dispatch({ type: 'start-again' });
    upload.setValue('file', null);
    upload.setValue('rememberedAt', null);
  };

  return {
    state,
    dispatch,
    step,
    lineProblems,
    selected,
    reading: preview.isPending,
    recording: confirm.isPending,
    undoing: undo.isPending,
    readStatement,
    record,
    undoBatch,
    startAgain,
  };
}
