import { Link } from 'react-router';
import { BellOff } from 'lucide-react';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useReminderPlan } from '../api/reminder-plan.ts';

/**
 * The dashboard's word that clients are overdue while reminders are paused for the business
 * (the plan's default): without it an owner could believe they are being reminded. Nothing
 * shows while the plan is on or no client is overdue.
 */
export function RemindersPausedNotice({ overdueClients }: { overdueClients: number }) {
  const { t } = useI18n();
  const plan = useReminderPlan();
  if (!plan.data || plan.data.enabled || overdueClients === 0) return null;
  return (
    <p
      className="alert alert-warning small d-flex align-items-start gap-2 mt-3 mb-0"
      data-testid="reminders-paused"
    >
      <BellOff size={16} className="icon flex-shrink-0 mt-1" aria-hidden />
      <span>
        {t('overview.reminders-paused.text', { count: overdueClients })}{' '}
        <Link to="/setting">{t('overview.reminders-paused.link')}</Link>
      </span>
    </p>
  );
}
