import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { newBookBodySchema } from '../../../../shared/schemas/members.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useCreateBook } from '../api/books.ts';

/** A new book's name; made, it is the session's book and its dashboard (the setup) follows. */
export function NewBookForm({
  onDone,
  label,
  submit,
}: {
  onDone?: () => void;
  label: string;
  submit: string;
}) {
  const { message } = useI18n();
  const navigate = useNavigate();
  const create = useCreateBook();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitted, isSubmitting },
  } = useForm<{ name: string }>({
    resolver: zodResolver(newBookBodySchema),
    defaultValues: { name: '' },
  });
  const error = create.error instanceof ApiError ? create.error : null;
  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      // Awaited, not a callback of mutate: made, the book replaces the page this form is on.
      await create.mutateAsync(name);
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setServerFieldErrors(failure, ['name'] as const, setError);
      return;
    }
    onDone?.();
    await navigate('/');
  });
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)}>
      {error && !error.fields.name && (
        <div className="alert alert-danger py-2 small" role="alert">
          {message(error.message)}
        </div>
      )}
      <FormField
        label={label}
        small
        maxLength={120}
        registration={register('name')}
        error={errors.name}
        showError={isSubmitted}
      />
      <button type="submit" className="btn btn-sm btn-primary" disabled={isSubmitting}>
        {submit}
      </button>
    </form>
  );
}
