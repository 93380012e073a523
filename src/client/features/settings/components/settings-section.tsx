import type { useForm } from 'react-hook-form';
import type { SettingsUpdate } from '../../../../shared/schemas/settings.ts';
import { useFlash } from '../../../components/flash.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useSaveSettings } from '../api/settings.ts';

/** Saves one section; the flash is the specification's either way. */
export function useSaveSection() {
  const { t } = useI18n();
  const showFlash = useFlash();
  const save = useSaveSettings();
  return async (update: SettingsUpdate) => {
    try {
      await save.mutateAsync(update);
      showFlash(t('settings.saved'), 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showFlash(t('settings.save-failed'), 'danger');
    }
  };
}

/** A yes/no setting with its one-line explanation. */
export function Switch({
  id,
  label,
  help,
  field,
}: {
  id: string;
  label: string;
  help: string;
  field: ReturnType<ReturnType<typeof useForm>['register']>;
}) {
  return (
    <div className="form-check mb-3">
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        aria-describedby={`${id}-help`}
        {...field}
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
      <div id={`${id}-help`} className="form-text mt-0">
        {help}
      </div>
    </div>
  );
}
