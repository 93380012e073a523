import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { useSettings } from '../../features/settings/api/settings.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import {
  PersonalSettings,
  SettingsForm,
} from '../../features/settings/components/settings-form.tsx';
import { ReminderPlanSection } from '../../features/reminders/components/reminder-plan-section.tsx';
import { AccountData } from '../../features/transfer/components/account-data.tsx';
import { PeopleSection } from '../../features/books/components/people-section.tsx';
import { LockDateSection } from '../../features/books/components/lock-date-section.tsx';
import { useBookAccess } from '../../lib/session-query.ts';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { useI18n } from '../../i18n/use-i18n.ts';

/** The book's settings for who keeps it, People for its owners; a viewer or collector's own. */
export function SettingsPage() {
  const can = useBookAccess();
  if (!can(apiRoutes.saveSettings.access)) return <PersonalSettingsPage />;
  // People and the closed period are both an owner's.
  return <BookSettingsPage people={can(apiRoutes.bookMembers.access)} />;
}

function PersonalSettingsPage() {
  const { t } = useI18n();
  useDocumentTitle(t('settings.title'));
  return <PersonalSettings />;
}

function BookSettingsPage({ people }: { people: boolean }) {
  const { t } = useI18n();
  const settings = useSettings();
  useDocumentTitle(t('settings.title'));
  if (settings.isPending) return <PageLoading />;
  if (settings.isError)
    return <PageLoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <SettingsForm
      settings={settings.data}
      reminderPlan={<ReminderPlanSection />}
      yourData={<AccountData />}
      people={people ? <PeopleSection /> : undefined}
      closedPeriods={people ? <LockDateSection /> : undefined}
    />
  );
}
