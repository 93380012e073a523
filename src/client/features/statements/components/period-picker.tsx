import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useSearchParams } from 'react-router';
import { localToday } from '../../../../shared/dates.ts';
import {
  defaultPeriod,
  resolvePeriod,
  statementPeriodFormSchema,
  statementQuerySchema,
  type StatementPeriod,
  type StatementPeriodForm,
} from '../../../../shared/schemas/statement.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';

/** The period in the address (?from=&to=), so a reload, a bookmark and the downloads agree. */
export function usePeriod(): [StatementPeriod, (period: StatementPeriod) => void] {
  const [search, setSearch] = useSearchParams();
  const today = localToday();
  const asked = statementQuerySchema.safeParse({
    from: search.get('from') ?? undefined,
    to: search.get('to') ?? undefined,
  });
  const resolved = asked.success ? resolvePeriod(asked.data, today) : null;
  const period = resolved?.ok ? resolved.period : defaultPeriod(today);
  return [period, (next) => setSearch({ from: next.from, to: next.to })];
}

export function PeriodPicker({
  period,
  onChange,
}: {
  period: StatementPeriod;
  onChange: (period: StatementPeriod) => void;
}) {
  const { t } = useI18n();
  const { register, handleSubmit, formState } = useForm<StatementPeriodForm>({
    resolver: zodResolver(statementPeriodFormSchema(localToday)),
    defaultValues: period,
  });
  const { errors, isSubmitted } = formState;
  // The schema checked the period; the trimmed days it answers are the period itself.
  const submit = handleSubmit(({ from, to }) => onChange({ from, to }));
  return (
    <form
      className="row g-2 align-items-start mb-3 no-print"
      noValidate
      aria-label={t('statement.period.label')}
      onSubmit={(event) => void submit(event)}
    >
      <FormField
        className="col-6 col-sm-4"
        label={t('statement.period.from')}
        type="date"
        small
        registration={register('from')}
        error={errors.from}
        showError={isSubmitted}
      />
      <FormField
        className="col-6 col-sm-4"
        label={t('statement.period.to')}
        type="date"
        small
        registration={register('to')}
        error={errors.to}
        showError={isSubmitted}
      />
      <div className="col-12 col-sm-4">
        {/* Lines the button up with the inputs, whatever error text sits under them. */}
        <span className="form-label small mb-1 d-none d-sm-block invisible" aria-hidden="true">
          {t('statement.period.label')}
        </span>
        <button type="submit" className="btn btn-sm btn-primary">
          {t('statement.period.show')}
        </button>
      </div>
    </form>
  );
}
