import { useReducer } from 'react';
import Papa from 'papaparse';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { refreshOwnerData } from '../../../lib/query-keys.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { checkImport, commitImport } from '../api/import-clients.ts';
import { csvImportReducer, initialCsvImport } from '../csv-import-state.ts';
import { guessMapping, quoteProblem, toImportRow, type QuoteProblem } from '../csv-mapping.ts';

/**
 * The CSV import's steps: read the file in chunks (with its progress), map its columns, check
 * every row on the server, then write them (with the upload's progress). The state is one
 * reducer (csv-import-state.ts); this hook adds the reading and the calls.
 */
export function useCsvImport() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(csvImportReducer, initialCsvImport);

  const readFile = (chosen: File) => {
    dispatch({ type: 'read-started' });
    const lines: string[][] = [];
    let problem: QuoteProblem | null = null;
    Papa.parse<string[]>(chosen, {
      skipEmptyLines: 'greedy',
      chunkSize: 256 * 1024,
      chunk: (results, parser) => {
        problem = quoteProblem(results.errors, lines.length);
        if (problem) {
          parser.abort();
          return;
        }
        lines.push(...results.data);
        dispatch({
          type: 'reading',
          progress: Math.min(1, results.meta.cursor / Math.max(1, chosen.size)),
        });
      },
      complete: () => {
        if (problem) {
          dispatch({ type: 'failed', error: { kind: 'quote', problem }, back: 'choose' });
          return;
        }
        const [header = [], ...rest] = lines;
        if (rest.length === 0) {
          dispatch({ type: 'failed', error: { kind: 'no-rows' }, back: 'choose' });
          return;
        }
        const names = header.map((cell) => cell.replace(/^\uFEFF/, ''));
        dispatch({
          type: 'read',
          file: { name: chosen.name, header: names, lines: rest },
          mapping: guessMapping(names),
        });
      },
      error: (failure) => {
        const error = { kind: 'unreadable', reason: failure.message } as const;
        dispatch({ type: 'failed', error, back: 'choose' });
      },
    });
  };

  const check = async () => {
    const { file, mapping, skipDuplicates } = state;
    if (!file || !mapping) return;
    const converted = file.lines.map((line) => toImportRow(line, mapping));
    const prepared = {
      rows: converted.map((item) => item.row),
      balanceErrors: converted.map((item) => item.balanceError),
    };
    dispatch({ type: 'checking', prepared });
    try {
      dispatch({ type: 'checked', result: await checkImport(prepared.rows, skipDuplicates) });
    } catch (failure) {
      const error =
        failure instanceof ApiError
          ? ({ kind: 'server', message: failure.message } as const)
          : ({ kind: 'check-failed' } as const);
      dispatch({ type: 'failed', error, back: 'mapping' });
    }
  };

  const commit = async () => {
    const { prepared, skipDuplicates } = state;
    if (!prepared) return;
    dispatch({ type: 'writing', progress: 0 });
    try {
      const result = await commitImport(prepared.rows, skipDuplicates, (progress) =>
        dispatch({ type: 'writing', progress: progress >= 1 ? null : progress }),
      );
      await refreshOwnerData(queryClient);
      showFlash(t('transfer.imported', { count: result.imported }), 'success');
      await navigate('/');
    } catch (failure) {
      showFlash(t('transfer.import-failed'), 'danger');
      const error =
        failure instanceof ApiError
          ? ({ kind: 'server', message: failure.message } as const)
          : ({ kind: 'import-failed' } as const);
      dispatch({ type: 'failed', error, back: 'mapping' });
    }
  };

  return { state, dispatch, readFile, check, commit };
}
