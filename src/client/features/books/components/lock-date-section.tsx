import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { lockDateBodySchema } from '../../../../shared/schemas/members.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useLockDate } from '../../../lib/lock-date.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { Section } from '../../../components/settings-card.tsx';
import { useSetLockDate } from '../api/activity.ts';

/**
 * Settings' "Closed periods", an owner's (issue 59): the books closed up to a day, so nothing
 * dated on or before it changes once reported; opened again by clearing it.
 */
export function LockDateSection() {
  const lockDate = useLockDate();
  const { t } = useI18n();
  return (
    <Section title={t('books.closing.title')} help={t('books.closing.help')}>
      {lockDate !== undefined && <LockDateForm key={lockDate ?? ''} lockDate={lockDate} />}
      <Link to="/setting/activity" className="d-inline-block mt-3">
        {t('books.activity.link')}
      </Link>
    </Section>
  );
}

function LockDateForm({ lockDate }: { lockDate: string | null }) {
  const { t, format } = useI18n();
  const showFlash = useFlash();
  const setLockDate = useSetLockDate();
  const { register, handleSubmit, setError, formState } = useForm<{ lockDate: string | null }>({
    resolver: zodResolver(lockDateBodySchema),
    defaultValues: { lockDate: lockDate ?? '' },
  });
  const { errors, isSubmitted, isSubmitting } = formState;

  const save = async (next: string | null) => {
    try {
      await setLockDate.mutateAsync(next);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setError('lockDate', { type: 'server', message: failure.fields.lockDate ?? failure.message });
      return;
    }
    showFlash(
      next === null
        ? t('books.closing.opened')
        : t('books.closing.saved', { date: format.day(next) }),
      'success',
    );
  };
  const submit = handleSubmit(({ lockDate: next }) => save(next));

  return (
    <form noValidate aria-label={t('books.closing.title')} onSubmit={(event) => void submit(event)}>
      <p className="mb-2" data-testid="lock-date-now">
        {lockDate === null
          ? t('books.closing.none')
          : t('books.closing.now', { date: format.day(lockDate) })}
      </p>
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <FormField
          className=""
          label={t('books.closing.label')}
          type="date"
          registration={register('lockDate')}
          error={errors.lockDate}
          showError={isSubmitted}
        />
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {t('books.closing.save')}
        </button>
        {lockDate !== null && (
          <button
            type="button"
            className="btn btn-outline-secondary"
            disabled={setLockDate.isPending}
            onClick={() => void save(null)}
          >
            {t('books.closing.clear')}
          </button>
        )}
      </div>
    </form>
  );
}
