import { apiRoutes } from '../../../../shared/api-routes.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { apiAddress } from '../../../lib/api-client.ts';
import { useBookAccess } from '../../../lib/session-query.ts';
import { RestoreAccount } from './restore-account.tsx';

/** The owner's data out (the JSON export, the ledger as CSV) and back in (a restore). */
export function AccountData() {
  const { t } = useI18n();
  const mayRestore = useBookAccess()(apiRoutes.restore.access);
  return (
    <>
      <div className="d-flex flex-wrap gap-2">
        <a
          className="btn btn-outline-secondary btn-sm"
          href={apiAddress(apiRoutes.exportJson)}
          download
        >
          {t('settings.download-all')}
        </a>
        <a
          className="btn btn-outline-secondary btn-sm"
          href={apiAddress(apiRoutes.exportEntriesCsv)}
          download
        >
          {t('settings.download-entries')}
        </a>
      </div>
      {/* A restore replaces the whole book: its owners'. */}
      {mayRestore && <RestoreAccount />}
    </>
  );
}
