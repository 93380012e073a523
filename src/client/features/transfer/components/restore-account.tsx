import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { RestoreSummary } from '../../../../shared/schemas/restore.ts';
import { useFlash } from '../../../components/flash.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { previewRestore, restoreAccount } from '../api/restore.ts';

type Stage =
  | { step: 'choose' }
  | { step: 'checking' }
  | { step: 'preview'; file: unknown; summary: RestoreSummary }
  | { step: 'restoring' };

function Exported({ from, at }: { from: string | null; at: string | null }) {
  const { t, format } = useI18n();
  const date = at ? format.moment(at) : null;
  if (from && date) return <li>{t('settings.restore.exported-from-on', { from, date })}</li>;
  if (from) return <li>{t('settings.restore.exported-from', { from })}</li>;
  if (date) return <li>{t('settings.restore.exported-on', { date })}</li>;
  return null;
}

function Preview({ summary }: { summary: RestoreSummary }) {
  const { t } = useI18n();
  return (
    <ul className="small mb-2" aria-label={t('settings.restore.holds')}>
      <Exported from={summary.exportedFrom || null} at={summary.exportedAt || null} />
      <li>
        {t('settings.restore.contents', {
          clients: summary.clients,
          entries: summary.entries,
          history: summary.history,
          rates: summary.rates,
        })}
      </li>
      {summary.openingsFromBalances > 0 && (
        <li>{t('settings.restore.openings', { count: summary.openingsFromBalances })}</li>
      )}
      {summary.renumbered > 0 && (
        <li>{t('settings.restore.renumbered', { count: summary.renumbered })}</li>
      )}
      {summary.remindersTurnedOff && <li>{t('settings.restore.reminders-off')}</li>}
      <li>{t('settings.restore.nothing-skipped')}</li>
    </ul>
  );
}

/**
 * Brings a "Download all my data" file back: checked and previewed on the server first, then
 * restored in one go. Only into an account with no clients, so restoring twice doubles nothing.
 */
export function RestoreAccount() {
  const { t, message } = useI18n();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<Stage>({ step: 'choose' });
  const [error, setError] = useState<string | null>(null);
  const [inputKey, setInputKey] = useState(0);

  const messageOf = (error: unknown) =>
    error instanceof ApiError ? message(error.message) : t('settings.restore.failed');

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
      setError(t('settings.restore.not-json', { file: chosen.name }));
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
      showFlash(
        t(
          summary.remindersTurnedOff
            ? 'settings.restore.restored-reminders-off'
            : 'settings.restore.restored',
          { clients: summary.clients },
        ),
        'success',
      );
      await navigate('/');
    } catch (failure) {
      setError(messageOf(failure));
      reset();
    }
  };

  return (
    <section aria-labelledby="restore-heading" className="mt-3">
      <h3 id="restore-heading" className="h6">
        {t('settings.restore.heading')}
      </h3>
      <p className="form-text mt-0">{t('settings.restore.help')}</p>
      {error && (
        <div className="alert alert-danger py-2 small" role="alert">
          {error}
        </div>
      )}
      <label htmlFor="restore-file" className="form-label small mb-1">
        {t('settings.restore.file')}
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
      {stage.step === 'checking' && <p className="small">{t('settings.restore.checking')}</p>}
      {stage.step === 'restoring' && <p className="small">{t('settings.restore.restoring')}</p>}
      {stage.step === 'preview' && (
        <>
          <Preview summary={stage.summary} />
          <div className="d-flex gap-2">
            <button
              type="button"
              className="btn btn-primary btn-sm"
              onClick={() => void restore(stage.file)}
            >
              {t('settings.restore.restore')}
            </button>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={reset}>
              {t('settings.restore.cancel')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
