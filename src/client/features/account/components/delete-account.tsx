import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import {
  deleteAccountBodySchema,
  type DeleteAccountBody,
} from '../../../../shared/schemas/account.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useDeleteAccount } from '../api/account.ts';

/** Leaving for good: the export is offered first, the password asked, then a last confirmation. */
export function DeleteAccount() {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const { mutation: remove, forgetSession } = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, getValues, formState } = useForm<DeleteAccountBody>({
    resolver: zodResolver(deleteAccountBodySchema),
    mode: 'onTouched',
    defaultValues: { password: '' },
  });
  const { errors, touchedFields, isSubmitted } = formState;

  const confirm = async () => {
    setConfirming(false);
    setServerError(null);
    try {
      await remove.mutateAsync(getValues());
      await navigate('/', { replace: true });
      forgetSession();
      showFlash('Your account and all its data have been deleted', 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(error.message);
      setServerFieldErrors(error, ['password'] as const, setError);
    }
  };

  return (
    <>
      <p>
        Deleting your account removes every client, ledger entry, history entry and setting you keep
        here, at once and for good, and signs you out everywhere. Keep a copy first:
      </p>
      <p>
        <a className="btn btn-outline-secondary btn-sm" href="/api/export.json" download>
          Download all my data (JSON)
        </a>
      </p>
      <form
        noValidate
        aria-label="Delete account"
        onSubmit={(event) => void handleSubmit(() => setConfirming(true))(event)}
      >
        {serverError && (
          <div className="alert alert-danger py-2" role="alert">
            {serverError}
          </div>
        )}
        <FormField
          label="Password to delete the account"
          type="password"
          autoComplete="current-password"
          registration={register('password')}
          error={errors.password}
          showError={isSubmitted || touchedFields.password === true}
        />
        <button type="submit" className="btn btn-danger" disabled={remove.isPending}>
          Delete my account
        </button>
      </form>
      <Modal
        open={confirming}
        title="Delete account?"
        onClose={() => setConfirming(false)}
        actions={
          <button type="button" className="btn btn-danger" onClick={() => void confirm()}>
            Delete for good
          </button>
        }
      >
        All your data will be deleted. This cannot be undone.
      </Modal>
    </>
  );
}
