import { Building2, FileText, MapPin, StickyNote, User } from 'lucide-react';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { addressLines, displayName } from '../../../../shared/names.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

/**
 * A business client's company, contact person, billing address and tax id on its page, and the
 * owner's private notes (marked as seen by the owner only). Nothing for a person without them.
 */
export function BusinessDetails({ client }: { client: Client }) {
  const { t } = useI18n();
  const address = addressLines(client);
  const company = client.company !== '';
  if (!company && address.length === 0 && client.taxId === '' && client.notes === '') return null;
  const icon = 'icon me-2 text-body-secondary flex-shrink-0 mt-1';
  return (
    <>
      <hr />
      {company && (
        <>
          <p className="mb-1 text-break d-flex">
            <Building2 size={16} className={icon} aria-hidden />
            <span>
              {t('clients.details.company')} {client.company}
            </span>
          </p>
          <p className="mb-1 text-break d-flex">
            <User size={16} className={icon} aria-hidden />
            <span>
              {t('clients.details.contact-person')} {displayName(client)}
            </span>
          </p>
        </>
      )}
      {address.length > 0 && (
        <div className="mb-1 text-break d-flex">
          <MapPin size={16} className={icon} aria-hidden />
          <div>
            {t('clients.details.billing-address')}
            <address className="mb-0" data-testid="client-address">
              {address.map((line) => (
                <div key={line}>{line}</div>
              ))}
            </address>
          </div>
        </div>
      )}
      {client.taxId !== '' && (
        <p className="mb-1 text-break d-flex">
          <FileText size={16} className={icon} aria-hidden />
          <span>
            {t('clients.details.tax-id')} {client.taxId}
          </span>
        </p>
      )}
      {client.notes !== '' && (
        <div className="mb-0 text-break d-flex">
          <StickyNote size={16} className={icon} aria-hidden />
          <div>
            {t('clients.details.notes')}
            <p className="mb-0" style={{ whiteSpace: 'pre-line' }} data-testid="client-notes">
              {client.notes}
            </p>
          </div>
        </div>
      )}
    </>
  );
}
