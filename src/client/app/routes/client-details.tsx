import { displayName } from '../../../shared/names.ts';
import { useParams } from 'react-router';
import { ClientLinkCard } from '../../features/client-links/components/client-link-card.tsx';
import { ClientDetails } from '../../features/clients/components/client-details.tsx';
import { ClientHistory } from '../../features/clients/components/client-history.tsx';
import { useClient, useClientHistory } from '../../features/clients/api/queries.ts';
import { useLedgerPages } from '../../features/ledger/api/entries.ts';
import { ClientLedger } from '../../features/ledger/components/client-ledger.tsx';
import { RecordEntry } from '../../features/ledger/components/record-entry.tsx';
import { useReminderPlanOverdueMax } from '../../features/reminders/api/reminder-plan.ts';
import { ClientRemindersCard } from '../../features/reminders/components/client-reminders-card.tsx';
import { useSettings } from '../../features/settings/api/settings.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useI18n } from '../../i18n/use-i18n.ts';
import { useBookAccess, useSeveralPeople } from '../../lib/session-query.ts';
import { apiRoutes } from '../../../shared/api-routes.ts';

/**
 * A client's page: the clients feature's card, with the ledger's buttons and list, the client
 * link, the reminders and the history. Their data is asked for here, beside the client's, so
 * none of it waits for the client to arrive first.
 */
export function ClientDetailsPage() {
  const id = useParams().id ?? '';
  const settings = useSettings();
  const client = useClient(id);
  const ledger = useLedgerPages(id);
  const history = useClientHistory(id);
  const overdueMax = useReminderPlanOverdueMax();
  const { t } = useI18n();
  // The reminders follow the book's plan, which a collector (only their clients) is not shown.
  const wholeBook = useBookAccess()(apiRoutes.reminderPreview.access);
  const severalPeople = useSeveralPeople();
  useDocumentTitle(client.data ? displayName(client.data) : t('clients.details.page-title'));
  // Until the settings are known the pencil stays locked rather than offering what may be off.
  const balanceLocked = settings.data?.preferences.disableBalanceOnEdit ?? true;
  return (
    <ClientDetails
      key={id}
      id={id}
      balanceLocked={balanceLocked}
      actions={(current) => <RecordEntry client={current} />}
      sections={(current) => (
        <>
          {ledger && (
            <ClientLedger
              client={current}
              entries={ledger.entries}
              showEarlier={ledger.showEarlier}
            />
          )}
          <ClientLinkCard clientId={current.id} />
          {wholeBook && <ClientRemindersCard client={current} />}
          {history.isSuccess && (
            <ClientHistory
              entries={history.data.entries}
              overdueMax={overdueMax.data ?? null}
              severalPeople={severalPeople}
            />
          )}
        </>
      )}
    />
  );
}
