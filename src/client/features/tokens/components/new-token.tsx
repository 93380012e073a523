import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans } from '@lingui/react';
import { Check, Copy, Plus } from 'lucide-react';
import { Link } from 'react-router';
import {
  accessTokenFormSchema,
  tokenNameMaxLength,
  type AccessTokenForm,
  type CreatedAccessToken,
} from '../../../../shared/schemas/access-tokens.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useCreateToken } from '../api/tokens.ts';

/** The end of the chosen day where the owner is: "expires on 31 May" means through 31 May. */
const endOfLocalDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

const todayLocal = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

/** Making a token: its name, what it may do, and when it ends. */
export function NewTokenForm({ onCreated }: { onCreated: (created: CreatedAccessToken) => void }) {
  const { t, message } = useI18n();
  const createToken = useCreateToken();
  const accessId = useId();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<AccessTokenForm>({
    resolver: zodResolver(accessTokenFormSchema),
    // Checked on submit, as before: an error shown on blur would move Cancel from under the pointer.
    defaultValues: { name: '', access: 'read', expiresOn: '' },
  });
  const { errors, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async ({ name, access, expiresOn }) => {
    setServerError(null);
    try {
      onCreated(
        await createToken.mutateAsync({
          name,
          access,
          expiresAt: expiresOn ? endOfLocalDay(expiresOn) : null,
        }),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) return setServerError(t('tokens.create-failed'));
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(message(error.message));
      setServerFieldErrors(error, ['name', 'access'] as const, setError);
      const expiry = error.fields.expiresAt; // i18n-ignore: the API's name for the expiry
      if (expiry) setError('expiresOn', { type: 'server', message: expiry });
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={t('tokens.new-token')}>
      <div className="row g-3 align-items-start">
        <FormField
          className="col-12 col-md-5"
          label={t('tokens.name')}
          maxLength={tokenNameMaxLength}
          placeholder={t('tokens.name-placeholder')}
          registration={register('name')}
          error={errors.name}
          showError={isSubmitted}
        />
        <div className="col-6 col-md-3">
          <label htmlFor={accessId} className="form-label">
            {t('tokens.access')}
          </label>
          <select id={accessId} className="form-select" {...register('access')}>
            <option value="read">{t('tokens.read-only')}</option>
            <option value="read-write">{t('tokens.read-write')}</option>
          </select>
        </div>
        <FormField
          className="col-6 col-md-4"
          label={t('tokens.expires-after')}
          type="date"
          min={todayLocal()}
          registration={register('expiresOn')}
          error={errors.expiresOn}
          showError={isSubmitted}
        />
      </div>
      {serverError && (
        <div className="alert alert-danger py-2 mt-3 mb-0" role="alert">
          {serverError}
        </div>
      )}
      <div className="d-flex flex-wrap gap-2 mt-3">
        <button
          type="submit"
          className="btn btn-primary d-inline-flex align-items-center gap-1"
          disabled={isSubmitting}
        >
          <Plus size={16} className="icon" aria-hidden />
          {t('tokens.create')}
        </button>
        <Link to="/setting" className="btn btn-outline-secondary">
          {t('tokens.cancel')}
        </Link>
      </div>
    </form>
  );
}

/** The new token's secret, shown this once, with a button to copy it. */
export function CreatedToken({
  created,
  onDone,
}: {
  created: CreatedAccessToken;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('yes');
    } catch {
      // No clipboard (plain HTTP on another host, or refused): the text is there to select.
      setCopied('failed');
    }
  };
  return (
    <div className="alert alert-success" role="status" aria-label={t('tokens.new-token')}>
      <p className="mb-2">
        <Trans id="tokens.ready" values={{ name: <strong>{created.token.name}</strong> }} />
      </p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          readOnly
          aria-label={t('tokens.token')}
          value={created.secret}
          onFocus={(event) => event.target.select()}
        />
        <button
          type="button"
          className="btn btn-outline-secondary d-inline-flex align-items-center gap-1"
          onClick={() => void copy()}
        >
          {copied === 'yes' ? (
            <Check size={16} className="icon" aria-hidden />
          ) : (
            <Copy size={16} className="icon" aria-hidden />
          )}
          {copied === 'yes' ? t('tokens.copied') : t('tokens.copy')}
        </button>
      </div>
      {copied === 'failed' && <p className="small mb-2">{t('tokens.copy-refused')}</p>}
      <button type="button" className="btn btn-sm btn-success" onClick={onDone}>
        {t('tokens.done')}
      </button>
    </div>
  );
}
