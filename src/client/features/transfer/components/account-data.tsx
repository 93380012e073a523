import { apiRoutes } from '../../../../shared/api-routes.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { apiAddress } from '../../../lib/api-client.ts';
import { RestoreAccount } from './restore-account.tsx';

/** The owner's data out (the JSON export, the ledger as CSV) and back in (a restore). */
export function AccountData() {
  const { t } = useI18n();
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
      <RestoreAccount />
    </>
  );
}
