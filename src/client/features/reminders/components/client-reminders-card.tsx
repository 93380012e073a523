import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Bell } from 'lucide-react';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { dayText } from '../../../components/formats.ts';
import { reminderStepText } from '../../../components/reminder-step.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useClientReminders, useSetClientReminders } from '../api/client-reminders.ts';
import { useReminderPlan, useReminderPreview } from '../api/reminder-plan.ts';
import { useBookAccess } from '../../../lib/session-query.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';

/**
 * "Reminders": this client's switch, whether the plan is on, and the next one or why none.
 * While the plan is paused for the whole business nothing goes out, so the switch is shown off
 * and cannot be changed: an "on" switch would promise reminders that are never sent.
 */
export function ClientRemindersCard({ client }: { client: Client }) {
  const { t, format } = useI18n();
  const id = useId();
  const plan = useReminderPlan();
  const preview = useReminderPreview();
  const state = useClientReminders(client.id);
  const change = useSetClientReminders(client.id);
  const mayChange = useBookAccess()(apiRoutes.setClientReminders.access);
  const [asked, setAsked] = useState<boolean | null>(null);
  if (!plan.isSuccess || !state.isSuccess) return null;
  // The switch shows what was asked for from the click on, until the answer is kept.
  const enabled = asked ?? state.data.enabled;
  const next = preview.data?.reminders.find((reminder) => reminder.clientId === client.id);

  const paused = !plan.data.enabled;
  const why = !enabled
    ? t('clients.reminders.none-off')
    : !client.email
      ? t('clients.reminders.none-no-email')
      : client.balance <= 0
        ? t('clients.reminders.none-nothing-unpaid')
        : t('clients.reminders.none-soon');

  return (
    <section className="card mt-3" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="h6 d-flex align-items-center gap-1">
          <Bell size={16} className="icon" aria-hidden />
          {t('clients.reminders.heading')}
        </h2>
        <div className="form-check form-switch mb-2">
          <input
            id={`${id}-switch`}
            type="checkbox"
            role="switch"
            className="form-check-input"
            checked={enabled && !paused}
            disabled={paused || change.isPending || !mayChange}
            aria-describedby={paused ? `${id}-paused` : undefined}
            onChange={(event) => {
              setAsked(event.target.checked);
              change.mutate(event.target.checked, { onSettled: () => setAsked(null) });
            }}
          />
          <label htmlFor={`${id}-switch`} className="form-check-label">
            {t('clients.reminders.switch')}
          </label>
        </div>
        {paused ? (
          <p id={`${id}-paused`} className="small mb-0" data-testid="client-reminders-paused">
            {t('clients.reminders.paused')}{' '}
            <Link to="/setting">{t('clients.reminders.paused-link')}</Link>
          </p>
        ) : (
          <p className="small mb-1">
            {t('clients.reminders.plan-on')}{' '}
            <Link to="/setting">{t('clients.reminders.plan-link')}</Link>
          </p>
        )}
        {!paused && preview.isSuccess && (
          <p className="small mb-0" data-testid="client-next-reminder">
            {next
              ? t('clients.reminders.next', {
                  day: dayText(next.on, format),
                  step: reminderStepText(next.step, plan.data.overdueMax, t),
                  amount: format.money(next.remaining, client.currency),
                })
              : why}
          </p>
        )}
      </div>
    </section>
  );
}
