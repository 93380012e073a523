import { useId } from 'react';
import { Link } from 'react-router';
import { Bell } from 'lucide-react';
import { isCurrency } from '../../../../shared/money.ts';
import { dayText } from '../../../components/formats.ts';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { reminderStepText } from '../../../components/reminder-step.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import {
  useFailedReminders,
  useReminderPlan,
  useReminderPreview,
  useSaveReminderPlan,
} from '../api/reminder-plan.ts';
import { ReminderPlanForm } from './reminder-plan.tsx';

/** The next 30 days' reminders as the saved plan makes them, and those given up on. */
function NextReminders({ overdueMax }: { overdueMax: number }) {
  const { t, format, message } = useI18n();
  const preview = useReminderPreview();
  const failed = useFailedReminders();
  const money = (minor: number, currency: string) =>
    isCurrency(currency) ? format.money(minor, currency) : `${format.number(minor)} ${currency}`;
  return (
    <>
      <h3 className="h6 mt-4">{t('settings.reminders.next')}</h3>
      {preview.isPending && <PageLoading />}
      {preview.isError && (
        <PageLoadError error={preview.error} onRetry={() => void preview.refetch()} />
      )}
      {preview.isSuccess &&
        (preview.data.reminders.length === 0 ? (
          <p className="small text-body-secondary">{t('settings.reminders.next-none')}</p>
        ) : (
          <ul className="list-group mb-3" aria-label={t('settings.reminders.next')}>
            {preview.data.reminders.map((reminder) => (
              <li
                key={`${reminder.entryId}-${reminder.step}`}
                className="list-group-item d-flex flex-wrap justify-content-between column-gap-3"
                data-testid="next-reminder"
              >
                <span className="text-break">
                  <Link to={`/client/${reminder.clientId}`}>{reminder.clientName}</Link>
                  <span className="text-body-secondary">
                    {' · '}
                    {reminderStepText(reminder.step, overdueMax, t)}
                  </span>
                </span>
                <span className="text-nowrap">
                  <time dateTime={reminder.on}>{dayText(reminder.on, format)}</time>
                  {' · '}
                  {money(reminder.remaining, reminder.currency)}
                </span>
              </li>
            ))}
          </ul>
        ))}
      {failed.isSuccess && failed.data.reminders.length > 0 && (
        <>
          <h3 className="h6 mt-4 text-owed">{t('settings.reminders.failed')}</h3>
          <ul className="list-group" aria-label={t('settings.reminders.failed')}>
            {failed.data.reminders.map((reminder) => (
              <li key={reminder.id} className="list-group-item" data-testid="failed-reminder">
                <div className="d-flex flex-wrap justify-content-between column-gap-3">
                  <span className="text-break">
                    <Link to={`/client/${reminder.clientId}`}>{reminder.clientName}</Link>
                    <span className="text-body-secondary">
                      {' · '}
                      {reminderStepText(reminder.step, overdueMax, t)}
                    </span>
                  </span>
                  <time dateTime={reminder.dueOn}>{dayText(reminder.dueOn, format)}</time>
                </div>
                <div className="small text-body-secondary text-break">
                  {t('settings.reminders.failed-error', {
                    attempts: reminder.attempts,
                    error: message(reminder.lastError ?? ''),
                  })}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** "Payment reminders" on the Settings page: the plan, then what it will send. */
export function ReminderPlanSection() {
  const { t } = useI18n();
  const id = useId();
  const plan = useReminderPlan();
  const save = useSaveReminderPlan();
  return (
    <section className="card mb-4" aria-labelledby={`${id}-title`}>
      <div className="card-header">
        <h2 id={`${id}-title`} className="h5 mb-0 d-flex align-items-center gap-2">
          <Bell size={18} className="icon" aria-hidden />
          {t('settings.reminders.heading')}
        </h2>
      </div>
      <div className="card-body">
        <p className="form-text mt-0">{t('settings.reminders.explain')}</p>
        {plan.isPending && <PageLoading />}
        {plan.isError && <PageLoadError error={plan.error} onRetry={() => void plan.refetch()} />}
        {plan.isSuccess && (
          <>
            <ReminderPlanForm plan={plan.data} save={save.mutateAsync} />
            <NextReminders overdueMax={plan.data.overdueMax} />
          </>
        )}
      </div>
    </section>
  );
}
