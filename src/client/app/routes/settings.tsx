import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { useSettings } from '../../features/settings/api/settings.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { SettingsForm } from '../../features/settings/components/settings-form.tsx';
import { ReminderPlanSection } from '../../features/reminders/components/reminder-plan-section.tsx';
import { AccountData } from '../../features/transfer/components/account-data.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';

export function SettingsPage() {
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
    />
  );
}
