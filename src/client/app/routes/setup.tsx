import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { useDocumentTitle } from '../../components/document-title.ts';
import { PageLoading } from '../../components/page-status.tsx';
import { useSession, useSetFirstRun } from '../../features/auth/api/session.ts';
import {
  useReminderPlan,
  useSaveReminderPlan,
} from '../../features/reminders/api/reminder-plan.ts';
import { SetupReminders } from '../../features/reminders/components/setup-reminders.tsx';
import { FirstRunSetup } from '../../features/settings/components/first-run-setup.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';

/** Where the dashboard sends a new owner first; done or skipped, the dashboard follows. */
export function SetupPage() {
  const { t } = useI18n();
  const session = useSession();
  const setFirstRun = useSetFirstRun();
  const navigate = useNavigate();
  const plan = useReminderPlan();
  const savePlan = useSaveReminderPlan();
  // Unanswered, the question reads as the plan stands (paused, for a new owner).
  const [sendReminders, setSendReminders] = useState<boolean | null>(null);
  const send = sendReminders ?? plan.data?.enabled ?? false;
  useDocumentTitle(t('setup.title'));
  const firstRun = session.data?.firstRun;
  if (!firstRun) return <PageLoading />;
  // Finished already (on another device, or a client added since): nothing to set up here.
  if (!firstRun.setupNeeded) return <Navigate to="/" replace />;
  return (
    <FirstRunSetup
      mainCurrency={firstRun.mainCurrency}
      reminders={
        plan.data && <SetupReminders plan={plan.data} send={send} onChange={setSendReminders} />
      }
      saveReminders={async () => {
        if (plan.data && send !== plan.data.enabled)
          await savePlan.mutateAsync({ ...plan.data, enabled: send });
      }}
      onFinished={async (finished) => {
        setFirstRun(finished);
        await navigate('/', { replace: true });
      }}
    />
  );
}
