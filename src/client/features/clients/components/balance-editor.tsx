import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { parseAmount, toDecimalText } from '../../../../shared/money.ts';
import {
  balanceFormSchema,
  type BalanceForm,
  type Client,
} from '../../../../shared/schemas/clients.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useUpdateBalance } from '../api/mutations.ts';

/**
 * The SPEC's pencil: sets the balance, recorded as an adjustment of the difference. It sends the
 * balance it was opened at, so a change made meanwhile in another tab is refused as a conflict
 * instead of being overwritten; the editor then starts again from the current balance.
 */
export function BalanceEditor({
  client,
  onDone,
  onCancel,
}: {
  client: Client;
  onDone: () => void;
  onCancel: () => void;
}) {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const updateBalance = useUpdateBalance(client.id);
  const [startedFrom, setStartedFrom] = useState(client.balance);
  const { t } = useI18n();
  const schema = useMemo(() => balanceFormSchema(client.currency), [client.currency]);
  const { register, handleSubmit, setError, formState } = useForm<BalanceForm>({
    resolver: zodResolver(schema),
    defaultValues: { balance: toDecimalText(client.balance, client.currency) },
  });
  const { errors, isSubmitted, isSubmitting } = formState;

  const save = handleSubmit(async (values) => {
    const parsed = parseAmount(values.balance, client.currency);
    if (!parsed.ok) return setError('balance', { type: 'parse', message: parsed.error });
    try {
      await updateBalance.mutateAsync({ balance: parsed.minor, previousBalance: startedFrom });
      showFlash(t('clients.updated'), 'success');
      onDone();
      await navigate('/');
    } catch (failure) {
      showFlash(t('clients.update-failed'), 'danger');
      if (!(failure instanceof ApiError)) throw failure;
      // The form has one field: whatever the server says shows under it.
      setError('balance', { type: 'server', message: failure.fields.balance ?? failure.message });
      if (failure.code === 'conflict') {
        // What the user typed stays; the next Update is made against the balance shown now.
        const fresh = await updateBalance.reloadClient();
        if (fresh) setStartedFrom(fresh.balance);
      }
    }
  });

  return (
    <form
      className="d-flex flex-wrap gap-2 align-items-start mt-2"
      noValidate
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return; // i18n-ignore: a key's name
        event.stopPropagation();
        onCancel();
      }}
    >
      <FormField
        className=""
        label={t('clients.details.new-balance')}
        hideLabel
        small
        inputMode="decimal"
        placeholder="0"
        registration={register('balance')}
        error={errors.balance}
        showError={isSubmitted}
      />
      <button type="submit" className="btn btn-sm btn-primary" disabled={isSubmitting}>
        {t('clients.details.update-balance')}
      </button>
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onCancel}>
        {t('clients.cancel')}
      </button>
    </form>
  );
}
