import { useId } from 'react';
import { intlLocales, type Locale } from '../../../../shared/locales.ts';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

/** The plan's days in words: "3 days before the due date, on the due date and every 7 days…". */
function planSteps(plan: ReminderPlan, t: ReturnType<typeof useI18n>['t'], locale: Locale) {
  const steps: string[] = [];
  if (plan.daysBefore !== null) steps.push(t('setup.reminders.before', { days: plan.daysBefore }));
  if (plan.onDueDate) steps.push(t('setup.reminders.on-due'));
  if (plan.overdueEveryDays !== null && plan.overdueMax > 0)
    steps.push(
      t('setup.reminders.overdue', { every: plan.overdueEveryDays, max: plan.overdueMax }),
    );
  return new Intl.ListFormat(intlLocales[locale], { type: 'conjunction' }).format(steps);
}

/**
 * The first run's question whether to send reminders, the plan they would follow shown under it:
 * reminders are paused until the owner says so, here or in Settings.
 */
export function SetupReminders({
  plan,
  send,
  onChange,
}: {
  plan: ReminderPlan;
  send: boolean;
  onChange: (send: boolean) => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  const steps = planSteps(plan, t, locale);
  return (
    <div className="mb-4">
      <div className="form-check form-switch">
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="form-check-input"
          checked={send}
          aria-describedby={`${id}-plan`}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={id} className="form-check-label">
          {t('setup.reminders.send')}
        </label>
      </div>
      <div id={`${id}-plan`} className="form-text">
        {steps ? t('setup.reminders.plan', { steps }) : t('setup.reminders.plan-empty')}
      </div>
    </div>
  );
}
