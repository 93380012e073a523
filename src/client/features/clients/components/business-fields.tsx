import { useId, useState } from 'react';
import { ChevronDown, ChevronRight } from 'lucide-react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import {
  businessFieldMaxLength,
  businessFields,
  type BusinessField,
  type ClientForm as ClientFormValues,
} from '../../../../shared/schemas/clients.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';

interface BusinessFieldsProps {
  register: UseFormRegister<ClientFormValues>;
  errors: FieldErrors<ClientFormValues>;
  /** Whether a field's error shows yet (touched, or the form submitted). */
  shows: (name: BusinessField) => boolean;
  /** Open at first: the client already has business details. */
  initiallyOpen: boolean;
}

/**
 * A business client's company, billing address, tax id and private notes: one optional group,
 * closed for a person until the owner opens it, and open whenever one of its fields is in error.
 */
export function BusinessFields({ register, errors, shows, initiallyOpen }: BusinessFieldsProps) {
  const { t } = useI18n();
  // A button and a region rather than <details>: fields hidden in a closed <details> are still
  // laid out for the form, and a colour change's transitions on them never end.
  const [open, setOpen] = useState(initiallyOpen);
  const regionId = useId();
  const inError = businessFields.some((name) => shows(name) && errors[name] !== undefined);
  const field = (name: BusinessField) => ({
    registration: register(name),
    error: errors[name],
    showError: shows(name),
    maxLength: businessFieldMaxLength[name],
  });
  return (
    <div className="mb-3 border rounded px-3 pt-2">
      <button
        type="button"
        className="btn btn-link p-0 mb-2 fw-semibold text-body text-decoration-none d-inline-flex align-items-center gap-1"
        aria-expanded={open || inError}
        aria-controls={open || inError ? regionId : undefined}
        onClick={() => setOpen(!(open || inError))}
      >
        {open || inError ? (
          <ChevronDown size={16} className="icon" aria-hidden />
        ) : (
          <ChevronRight size={16} className="icon" aria-hidden />
        )}
        {t('clients.business.legend')}
      </button>
      {(open || inError) && (
        <div id={regionId} role="group" aria-label={t('clients.business.legend')}>
          <p className="form-text mt-0">{t('clients.business.hint')}</p>
          <FormField
            label={t('clients.field.company')}
            autoComplete="organization"
            {...field('company')}
          />
          <FormField
            label={t('clients.field.address-line1')}
            autoComplete="off"
            {...field('addressLine1')}
          />
          <FormField
            label={t('clients.field.address-line2')}
            autoComplete="off"
            {...field('addressLine2')}
          />
          <div className="row">
            <FormField
              className="col-12 col-sm-7 mb-3"
              label={t('clients.field.city')}
              autoComplete="off"
              {...field('city')}
            />
            <FormField
              className="col-12 col-sm-5 mb-3"
              label={t('clients.field.postcode')}
              autoComplete="off"
              {...field('postcode')}
            />
          </div>
          <div className="row">
            <FormField
              className="col-12 col-sm-7 mb-3"
              label={t('clients.field.country')}
              autoComplete="off"
              {...field('country')}
            />
            <FormField
              className="col-12 col-sm-5 mb-3"
              label={t('clients.field.tax-id')}
              autoComplete="off"
              {...field('taxId')}
            />
          </div>
          <FormField label={t('clients.field.notes')} rows={3} {...field('notes')} />
          <p className="form-text mt-n2">{t('clients.business.notes-private')}</p>
        </div>
      )}
    </div>
  );
}
