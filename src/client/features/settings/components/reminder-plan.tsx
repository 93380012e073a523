import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Bell } from 'lucide-react';
import { isCurrency } from '../../../../shared/money.ts';
import { reminderPlanSchema, type ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { useFlash } from '../../../components/flash.tsx';
import { dayText } from '../../../components/formats.ts';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { reminderStepText } from '../../../components/reminder-step.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { messagesByField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import {
  useFailedReminders,
  useReminderPlan,
  useReminderPreview,
  useSaveReminderPlan,
} from '../api/reminders.ts';

/** The number fields are text while typed: an empty one means "none", a wrong one is kept. */
interface PlanFormValues {
  enabled: boolean;
  daysBefore: string;
  onDueDate: boolean;
  overdueEveryDays: string;
  overdueMax: string;
  attachPdf: boolean;
  timeZone: string;
}
type PlanField = keyof PlanFormValues;

const toFormValues = (plan: ReminderPlan): PlanFormValues => ({
  ...plan,
  daysBefore: plan.daysBefore === null ? '' : String(plan.daysBefore),
  overdueEveryDays: plan.overdueEveryDays === null ? '' : String(plan.overdueEveryDays),
  overdueMax: String(plan.overdueMax),
});

const optionalDays = (text: string) => (text.trim() === '' ? null : Number(text.trim()));

/** The browser's zone first, then the plan's, then every zone this browser knows. */
function timeZoneChoices(saved: string): { browser: string; zones: string[] } {
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zones = [...new Set([browser, saved, ...Intl.supportedValuesOf('timeZone')])];
  return { browser, zones };
}

/**
 * The plan's form. `save` sends it; an ApiError it throws is shown by field, and what was typed
 * stays.
 */
export function ReminderPlanForm({
  plan,
  save,
}: {
  plan: ReminderPlan;
  save: (plan: ReminderPlan) => Promise<unknown>;
}) {
  const { t, message } = useI18n();
  const id = useId();
  const showFlash = useFlash();
  const [errors, setErrors] = useState<Partial<Record<PlanField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<PlanFormValues>({
    defaultValues: toFormValues(plan),
  });
  const { browser, zones } = useMemo(() => timeZoneChoices(plan.timeZone), [plan.timeZone]);

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    const parsed = reminderPlanSchema.safeParse({
      ...values,
      daysBefore: optionalDays(values.daysBefore),
      overdueEveryDays: optionalDays(values.overdueEveryDays),
      overdueMax: values.overdueMax.trim() === '' ? Number.NaN : Number(values.overdueMax.trim()),
    });
    if (!parsed.success) {
      setErrors(messagesByField(parsed.error.issues, message));
      return;
    }
    setErrors({});
    try {
      await save(parsed.data);
      showFlash(t('settings.reminders.saved'), 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // The server names the fields it refuses, in the page's language.
      setErrors(error.fields);
      if (Object.keys(error.fields).length === 0) setFormError(message(error.message));
    }
  });

  const invalid = (field: PlanField) => (errors[field] ? ' is-invalid' : '');
  const described = (field: PlanField) =>
    errors[field] ? `${id}-${field}-help ${id}-${field}-error` : `${id}-${field}-help`;
  const help = (field: PlanField, text: string) => (
    <>
      <div id={`${id}-${field}-help`} className="form-text mt-0">
        {text}
      </div>
      {errors[field] && (
        <div id={`${id}-${field}-error`} className="invalid-feedback d-block">
          {errors[field]}
        </div>
      )}
    </>
  );
  const check = (field: 'enabled' | 'onDueDate' | 'attachPdf', label: string, text: string) => (
    <div className={`form-check${field === 'enabled' ? ' form-switch' : ''} mb-3`}>
      <input
        id={`${id}-${field}`}
        type="checkbox"
        role={field === 'enabled' ? 'switch' : undefined}
        className={`form-check-input${invalid(field)}`}
        aria-describedby={described(field)}
        {...register(field)}
      />
      <label htmlFor={`${id}-${field}`} className="form-check-label">
        {label}
      </label>
      {help(field, text)}
    </div>
  );
  const days = (
    field: 'daysBefore' | 'overdueEveryDays' | 'overdueMax',
    label: string,
    text: string,
  ) => (
    <div className="mb-3">
      <label htmlFor={`${id}-${field}`} className="form-label small mb-1">
        {label}
      </label>
      <input
        id={`${id}-${field}`}
        className={`form-control${invalid(field)}`}
        style={{ maxWidth: '10rem' }}
        inputMode="numeric"
        aria-invalid={Boolean(errors[field])}
        aria-describedby={described(field)}
        {...register(field)}
      />
      {help(field, text)}
    </div>
  );

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      {check('enabled', t('settings.reminders.enabled'), t('settings.reminders.enabled-help'))}
      {days(
        'daysBefore',
        t('settings.reminders.days-before'),
        t('settings.reminders.days-before-help'),
      )}
      {check(
        'onDueDate',
        t('settings.reminders.on-due-date'),
        t('settings.reminders.on-due-date-help'),
      )}
      {days(
        'overdueEveryDays',
        t('settings.reminders.overdue-every'),
        t('settings.reminders.overdue-every-help'),
      )}
      {days(
        'overdueMax',
        t('settings.reminders.overdue-max'),
        t('settings.reminders.overdue-max-help'),
      )}
      {check(
        'attachPdf',
        t('settings.reminders.attach-pdf'),
        t('settings.reminders.attach-pdf-help'),
      )}
      <div className="mb-3">
        <label htmlFor={`${id}-timeZone`} className="form-label small mb-1">
          {t('settings.reminders.time-zone')}
        </label>
        <select
          id={`${id}-timeZone`}
          className={`form-select${invalid('timeZone')}`}
          aria-describedby={described('timeZone')}
          {...register('timeZone')}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone === browser ? t('settings.reminders.this-device', { zone }) : zone}
            </option>
          ))}
        </select>
        {help('timeZone', t('settings.reminders.time-zone-help'))}
      </div>
      {formError && (
        <p className="text-danger small" role="alert">
          {formError}
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
        {t('settings.reminders.save')}
      </button>
    </form>
  );
}

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
