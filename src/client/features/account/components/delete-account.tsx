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
import { useI18n } from '../../../i18n/use-i18n.ts';
import { apiAddress, ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useDeleteAccount } from '../api/account.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';

/** Leaving for good: the export is offered first, the password asked, then a last confirmation. */
export function DeleteAccount() {
  const { t, message } = useI18n();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const { mutation: remove, forgetSession } = useDeleteAccount();
  const [confirming, setConfirming] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, getValues, formState } = useForm<DeleteAccountBody>({
    resolver: zodResolver(deleteAccountBodySchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
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
      showFlash(t('account.delete.done'), 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(message(error.message));
      setServerFieldErrors(error, ['password'] as const, setError);
    }
  };

  return (
    <>
      <p>{t('account.delete.explanation')}</p>
      <p>
        <a
          className="btn btn-outline-secondary btn-sm"
          href={apiAddress(apiRoutes.exportJson)}
          download
        >
          {t('account.delete.download')}
        </a>
      </p>
      <form
        noValidate
        aria-label={t('account.delete.title')}
        onSubmit={(event) => void handleSubmit(() => setConfirming(true))(event)}
      >
        {serverError && (
          <div className="alert alert-danger py-2" role="alert">
            {serverError}
          </div>
        )}
        <FormField
          label={t('account.delete.password')}
          type="password"
          autoComplete="current-password"
          registration={register('password')}
          error={errors.password}
          showError={isSubmitted || touchedFields.password === true}
        />
        <button type="submit" className="btn btn-danger" disabled={remove.isPending}>
          {t('account.delete.submit')}
        </button>
      </form>
      <Modal
        open={confirming}
        title={t('account.delete.confirm-title')}
        onClose={() => setConfirming(false)}
        actions={
          <button type="button" className="btn btn-danger" onClick={() => void confirm()}>
            {t('account.delete.confirm')}
          </button>
        }
      >
        {t('account.delete.confirm-text')}
      </Modal>
    </>
  );
}
