import { useI18n } from '../i18n/use-i18n.ts';

export function PageLoading() {
  const { t } = useI18n();
  return (
    <div className="text-center py-5" role="status">
      <span className="spinner-border" aria-hidden="true" />
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}

export function PageLoadError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t, message } = useI18n();
  return (
    <div
      className="alert alert-danger d-flex justify-content-between align-items-center"
      role="alert"
    >
      <span>{t('common.load-failed', { reason: message(error.message) })}</span>
      <button type="button" className="btn btn-sm btn-outline-light" onClick={onRetry}>
        {t('common.try-again')}
      </button>
    </div>
  );
}
