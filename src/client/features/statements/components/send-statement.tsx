import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Copy, Mail, Send, X } from 'lucide-react';
import {
  statementSendFormSchema,
  type Statement,
  type StatementSendForm,
} from '../../../../shared/schemas/statement.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useSendStatement } from '../api/statement.ts';
import { reminderText } from './statement-texts.ts';

function mailtoLink(email: string, subject: string, message: string) {
  // encodeURIComponent, not URLSearchParams: mail programs read "+" as a plus, not a space.
  return `mailto:${encodeURIComponent(email)}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`;
}

/**
 * "Send statement": e-mails the PDF when the server can send mail; otherwise a mailto: link and
 * the text to copy. The subject and message start from what the statement says is overdue.
 */
export function SendStatement({
  statement,
  onClose,
}: {
  statement: Statement;
  onClose: () => void;
}) {
  const i18n = useI18n();
  const { t } = i18n;
  const id = useId();
  const showFlash = useFlash();
  const send = useSendStatement(statement.client.id);
  const { register, handleSubmit, setError, getValues, control, formState } =
    useForm<StatementSendForm>({
      resolver: zodResolver(statementSendFormSchema),
      defaultValues: reminderText(i18n, statement),
    });
  const { errors, isSubmitted } = formState;
  // The mailto: link carries the text as it is typed.
  const [subject, message] = useWatch({ control, name: ['subject', 'message'] });
  const [serverError, setServerError] = useState<string | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const email = statement.client.email;

  const submit = handleSubmit(async (text) => {
    try {
      const sent = await send.mutateAsync({
        from: statement.period.from,
        to: statement.period.to,
        ...text,
      });
      showFlash(t('statement.send.sent', { email: sent.sentTo }), 'success');
      onClose();
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setServerError(failure.message);
      setServerFieldErrors(failure, ['subject', 'message'] as const, setError);
    }
  });

  if (!email) {
    return (
      <div className="alert alert-warning no-print" role="alert">
        {t('statement.send.no-address')}
      </div>
    );
  }

  const copy = async () => {
    const text = getValues();
    try {
      await navigator.clipboard.writeText(`${text.subject}\n\n${text.message}`);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <section className="card mb-3 no-print" aria-labelledby={`${id}-title`}>
      <form
        className="card-body"
        noValidate
        onSubmit={(event) => {
          setServerError(null);
          // Without a mail server there is nothing to send: Enter in the subject does nothing.
          if (statement.emailConfigured) void submit(event);
          else event.preventDefault();
        }}
      >
        <h2 id={`${id}-title`} className="h6">
          {t('statement.send.heading', { email })}
        </h2>
        {!statement.emailConfigured && (
          <p className="small text-body-secondary">{t('statement.send.no-mail-server')}</p>
        )}
        <FormField
          className="mb-2"
          label={t('statement.send.subject')}
          small
          registration={register('subject')}
          error={errors.subject}
          showError={isSubmitted}
        />
        <FormField
          className="mb-2"
          label={t('statement.send.message')}
          small
          rows={8}
          registration={register('message')}
          error={errors.message}
          showError={isSubmitted}
        />
        {serverError && (
          <div className="alert alert-danger py-2 small" role="alert">
            {i18n.message(serverError)}
          </div>
        )}
        <div className="d-flex flex-wrap gap-2 align-items-center">
          {statement.emailConfigured ? (
            <button
              type="submit"
              className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
              disabled={send.isPending}
            >
              <Send size={14} className="icon" aria-hidden />
              {send.isPending ? t('statement.send.sending') : t('statement.send.with-pdf')}
            </button>
          ) : (
            <a
              className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
              href={mailtoLink(email, subject, message)}
            >
              <Mail size={14} className="icon" aria-hidden />
              {t('statement.send.open-mail-program')}
            </a>
          )}
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
            onClick={() => void copy()}
          >
            <Copy size={14} className="icon" aria-hidden />
            {t('statement.send.copy')}
          </button>
          <button
            type="button"
            className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
            onClick={onClose}
          >
            <X size={14} className="icon" aria-hidden />
            {t('statement.send.cancel')}
          </button>
          {copied === 'yes' && (
            <span className="small text-credit" role="status">
              {t('statement.send.copied')}
            </span>
          )}
          {copied === 'failed' && (
            <span className="small text-owed" role="status">
              {t('statement.send.copy-failed')}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
