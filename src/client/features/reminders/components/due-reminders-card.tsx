import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Check, Copy, Mail } from 'lucide-react';
import { isCurrency } from '../../../../shared/money.ts';
import type { DueReminder } from '../../../../shared/schemas/reminders.ts';
import { reminderStepText } from '../../../components/reminder-step.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useMarkReminderSent, useRemindersDueToday } from '../api/due-reminders.ts';
import { useReminderPlanOverdueMax } from '../api/reminder-plan.ts';

function DueReminderItem({
  reminder,
  overdueMax,
}: {
  reminder: DueReminder;
  overdueMax: number | null;
}) {
  const { t, format, message } = useI18n();
  const mark = useMarkReminderSent();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const amount = isCurrency(reminder.currency)
    ? format.money(BigInt(reminder.amountDue), reminder.currency)
    : reminder.amountDue;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(reminder.text);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <li className="list-group-item px-0" data-testid="due-reminder">
      <div className="d-flex flex-wrap justify-content-between column-gap-3">
        <Link to={`/client/${reminder.clientId}`} className="text-break">
          {reminder.clientName}
        </Link>
        <span className="fw-semibold">{t('overview.due.amount', { amount })}</span>
      </div>
      <div className="small text-body-secondary text-break">
        {reminder.charges
          .map((charge) => {
            const step = reminderStepText(charge.step, overdueMax, t);
            return charge.reference
              ? t('overview.due.charge', { reference: charge.reference, step })
              : step;
          })
          .join(', ')}
        {' · '}
        {reminder.email}
      </div>
      <div className="d-flex flex-wrap gap-2 mt-2">
        <button
          type="button"
          className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
          onClick={() => void copy()}
        >
          <Copy size={14} className="icon" aria-hidden />
          {t('overview.due.copy')}
        </button>
        <a
          className="btn btn-sm btn-outline-primary d-inline-flex align-items-center gap-1"
          href={reminder.mailto}
        >
          <Mail size={14} className="icon" aria-hidden />
          {t('overview.due.write')}
        </a>
        <button
          type="button"
          className="btn btn-sm btn-success d-inline-flex align-items-center gap-1"
          disabled={mark.isPending}
          onClick={() =>
            mark.mutate({
              clientId: reminder.clientId,
              body: {
                charges: reminder.charges.map(({ entryId, step }) => ({ entryId, step })),
              },
            })
          }
        >
          <Check size={14} className="icon" aria-hidden />
          {t('overview.due.mark-sent')}
        </button>
      </div>
      {copied && (
        <p
          className={`small mb-0 mt-1 ${copied === 'yes' ? 'text-credit' : 'text-owed'}`}
          role="status"
        >
          {copied === 'yes' ? t('overview.due.copied') : t('overview.due.copy-failed')}
        </p>
      )}
      {mark.isError && (
        <p className="small text-owed mb-0 mt-1" role="alert">
          {message(mark.error.message)}
        </p>
      )}
    </li>
  );
}

/**
 * "Reminders due today": without a mail server the owner sends them by hand, works down this
 * list and marks each as sent. Nothing shows when a mail server sends them, or none is due.
 */
export function DueRemindersCard() {
  const { t } = useI18n();
  const id = useId();
  const due = useRemindersDueToday();
  const overdueMax = useReminderPlanOverdueMax();
  if (!due.data || due.data.mailConfigured || due.data.reminders.length === 0) return null;
  const { reminders } = due.data;
  return (
    <section className="card mt-4" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="h6 mb-1">
          {t('overview.due.heading', { count: reminders.length })}
        </h2>
        <p className="small text-body-secondary mb-1">{t('overview.due.explain')}</p>
        <ul className="list-group list-group-flush">
          {reminders.map((reminder) => (
            <DueReminderItem
              key={reminder.clientId}
              reminder={reminder}
              overdueMax={overdueMax.data ?? null}
            />
          ))}
        </ul>
      </div>
    </section>
  );
}
