import { useI18n } from '../../../i18n/use-i18n.ts';
import type { BankImportAction, BankImportState, Previewed } from '../bank-import-state.ts';
import type { ChoiceProblem } from '../review.ts';
import { ReviewTable } from './review-table.tsx';

/** Step 2: the lines read, who paid each, and recording the ones chosen. */
export function ReviewStep({
  previewed,
  state,
  dispatch,
  problems,
  selected,
  recording,
  onRecord,
}: {
  previewed: Previewed;
  state: BankImportState;
  dispatch: (action: BankImportAction) => void;
  problems: Map<string, ChoiceProblem>;
  selected: Previewed['lines'];
  recording: boolean;
  onRecord: () => void;
}) {
  const { t, format } = useI18n();
  const total = selected.reduce((sum, line) => sum + line.amount, 0);
  const recordedBefore = previewed.lines.filter((line) => line.alreadyRecorded).length;
  return (
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
          choices={state.choices}
          currency={previewed.currency}
          clients={state.clients}
          filter={state.filter}
          problems={problems}
          onFilter={(filter) => dispatch({ type: 'filter', filter })}
          onChoice={(lineId, choice) => dispatch({ type: 'choose', lineId, choice })}
          onClientNamed={(client) => dispatch({ type: 'client-named', client })}
        />
      )}
      {state.confirmProblem && (
        <p className="alert alert-danger py-2" role="alert">
          {state.confirmProblem}
        </p>
      )}
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <button
          type="button"
          className="btn btn-outline-primary"
          onClick={() => dispatch({ type: 'select-high' })}
          disabled={
            !previewed.lines.some(
              (line) => !line.alreadyRecorded && line.suggestions[0]?.confidence === 'high',
            )
          }
        >
          {t('bank.review.select-high')}
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={selected.length === 0 || recording}
          onClick={onRecord}
        >
          {recording
            ? t('bank.confirm.recording')
            : t('bank.confirm.button', {
                count: selected.length,
                total: selected.length === 0 ? '' : format.money(total, previewed.currency),
              })}
        </button>
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => dispatch({ type: 'back-to-upload' })}
        >
          {t('bank.review.back')}
        </button>
      </div>
    </section>
  );
}
