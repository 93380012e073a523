import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { RestoreSummary } from '../../../../shared/schemas/restore.ts';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { previewRestore, restoreAccount } from '../api/restore.ts';

type Stage =
  | { step: 'choose' }
  | { step: 'checking' }
  | { step: 'preview'; file: unknown; summary: RestoreSummary }
  | { step: 'restoring' };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'Something went wrong; nothing was changed';

function Preview({ summary }: { summary: RestoreSummary }) {
  const exported = summary.exportedAt ? new Date(summary.exportedAt).toLocaleString() : null;
  return (
    <ul className="small mb-2" aria-label="What the file holds">
      {(summary.exportedFrom || exported) && (
        <li>
          Exported{summary.exportedFrom ? ` from ${summary.exportedFrom}` : ''}
          {exported ? ` on ${exported}` : ''}
        </li>
      )}
      <li>
        {plural(summary.clients, 'client')},{' '}
        {plural(summary.entries, 'ledger entry', 'ledger entries')},{' '}
        {plural(summary.history, 'history entry', 'history entries')},{' '}
        {plural(summary.rates, 'exchange rate')} and your preferences
      </li>
      {summary.openingsFromBalances > 0 && (
        <li>
          An older file without ledgers: each balance becomes an opening balance (
          {plural(summary.openingsFromBalances, 'entry', 'entries')})
        </li>
      )}
      {summary.renumbered > 0 && (
        <li>
          {plural(summary.renumbered, 'client')} get a new id, because another account on this
          server uses theirs
        </li>
      )}
      <li>Nothing in the file is skipped.</li>
    </ul>
  );
}

/**
 * Brings a "Download all my data" file back: checked and previewed on the server first, then
 * restored in one go. Only into an account with no clients, so restoring twice doubles nothing.
 */
export function RestoreAccount() {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);

  const reset = () => {
    setStage({ step: 'choose' });
    setInputKey((key) => key + 1);
  };

  const check = async (chosen: File) => {
    setError(null);
    setStage({ step: 'checking' });
    let file: unknown;
    try {
      file = JSON.parse(await chosen.text());
    } catch {
      setError(
        `${chosen.name} is not a JSON file; choose the file "Download all my data" gave you`,
      );
      reset();
      return;
    }
    try {
      setStage({ step: 'preview', file, summary: await previewRestore(file) });
    } catch (failure) {
      setError(messageOf(failure));
      reset();
    }
  };

  const restore = async (file: unknown) => {
    setError(null);
    setStage({ step: 'restoring' });
    try {
      const summary = await restoreAccount(file);
      await queryClient.invalidateQueries();
      showFlash(`Restored ${plural(summary.clients, 'client')}`, 'success');
      await navigate('/');
    } catch (failure) {
      setError(messageOf(failure));
      reset();
    }
  };

  return (
    <section aria-labelledby="restore-heading" className="mt-3">
      <h3 id="restore-heading" className="h6">
        Restore from an export file
      </h3>
      <p className="form-text mt-0">
        Brings a file from “Download all my data” back: clients, ledgers, history and settings. It
        goes only into an account with no clients yet, so nothing is ever doubled.
      </p>
      {error && (
        <div className="alert alert-danger py-2 small" role="alert">
          {error}
        </div>
      )}
      <label htmlFor="restore-file" className="form-label small mb-1">
        Export file (JSON)
      </label>
      <input
        key={inputKey}
        id="restore-file"
        type="file"
        accept=".json,application/json"
        className="form-control form-control-sm mb-2"
        disabled={stage.step === 'checking' || stage.step === 'restoring'}
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          if (chosen) void check(chosen);
        }}
      />
      {stage.step === 'checking' && <p className="small">Checking the file…</p>}
      {stage.step === 'restoring' && <p className="small">Restoring…</p>}
      {stage.step === 'preview' && (
        <>
          <Preview summary={stage.summary} />
          <div className="d-flex gap-2">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => void restore(stage.file)}
            >
              Restore
            </button>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={reset}>
              Cancel
            </button>
          </div>
        </>
      )}
    </section>
  );
}
