import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { reminderPlanSchema, type ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { messagesByField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';

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
