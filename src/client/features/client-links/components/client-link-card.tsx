import { useId, useState } from 'react';
import { Copy, Link2, Trash2 } from 'lucide-react';
import { localeNames, locales, isLocale, type Locale } from '../../../../shared/locales.ts';
import { clientLinkExpiryDays } from '../../../../shared/schemas/client-links.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useClientLink, useClientLinkChanges } from '../api/client-link.ts';
import { useBookAccess } from '../../../lib/session-query.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';

type Expiry = 'never' | `${(typeof clientLinkExpiryDays)[number]}`;

/** "Client link": a private page with the client's statement, made, copied and revoked here. */
export function ClientLinkCard({ clientId }: { clientId: string }) {
  const { t, format } = useI18n();
  const id = useId();
  const state = useClientLink(clientId);
  // A viewer or a collector sees the link's state; who keeps the book makes and revokes it.
  const mayChange = useBookAccess()(apiRoutes.createClientLink.access);
  const changes = useClientLinkChanges(clientId);
  const [expiry, setExpiry] = useState<Expiry>('30');
  // The address is shown only right after it is made: the server keeps no copy of it.
  const [address, setAddress] = useState<string | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  // The select shows what was picked from the change on, until the answer is kept.
  const [askedLanguage, setAskedLanguage] = useState<Locale | null | undefined>(undefined);
  if (!state.isSuccess) return null;
  const { link, language } = state.data;
  const pickLanguage = (picked: Locale | null) => {
    setAskedLanguage(picked);
    changes.language.mutate(picked, { onSettled: () => setAskedLanguage(undefined) });
  };

  const create = async () => {
    setCopied(null);
    const made = await changes.create.mutateAsync({
      expiresInDays: expiry === 'never' ? null : (Number(expiry) as 7 | 30 | 90),
    });
    setAddress(`${window.location.origin}${made.path}`);
  };
  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  const busy = changes.create.isPending || changes.revoke.isPending;

  return (
    <section className="card mt-3" aria-labelledby={`${id}-title`}>
      <div className="card-body">
        <h2 id={`${id}-title`} className="h6 d-flex align-items-center gap-1">
          <Link2 size={16} className="icon" aria-hidden />
          {t('clients.link.heading')}
        </h2>
        <p className="small text-body-secondary">{t('clients.link.explain')}</p>
        {link ? (
          <ul className="list-unstyled small mb-2" data-testid="client-link-state">
            <li>
              {link.expired
                ? t('clients.link.expired', {
                    day: format.moment(link.expiresAt ?? link.createdAt),
                  })
                : link.expiresAt
                  ? t('clients.link.expires', { day: format.moment(link.expiresAt) })
                  : t('clients.link.no-expiry')}
            </li>
            <li>
              {link.lastOpenedAt
                ? t('clients.link.last-opened', { at: format.moment(link.lastOpenedAt) })
                : t('clients.link.never-opened')}
            </li>
          </ul>
        ) : (
          <p className="small mb-2">{t('clients.link.none')}</p>
        )}
        {address && (
          <div className="input-group input-group-sm mb-2">
            <input
              className="form-control"
              readOnly
              value={address}
              aria-label={t('clients.link.address')}
              onFocus={(event) => event.currentTarget.select()}
            />
            <button
              type="button"
              className="btn btn-outline-secondary d-inline-flex align-items-center gap-1"
              onClick={() => void copy()}
            >
              <Copy size={14} className="icon" aria-hidden />
              {t('clients.link.copy')}
            </button>
          </div>
        )}
        {copied === 'yes' && (
          <p className="small text-credit" role="status">
            {t('clients.link.copied')}
          </p>
        )}
        {copied === 'failed' && (
          <p className="small text-owed" role="status">
            {t('clients.link.copy-failed')}
          </p>
        )}
        {mayChange && (
          <div className="d-flex flex-wrap gap-2 align-items-end">
            <div>
              <label className="form-label small mb-1" htmlFor={`${id}-expiry`}>
                {t('clients.link.expiry')}
              </label>
              <select
                id={`${id}-expiry`}
                className="form-select form-select-sm"
                value={expiry}
                onChange={(event) => setExpiry(event.target.value as Expiry)}
              >
                {clientLinkExpiryDays.map((days) => (
                  <option key={days} value={String(days)}>
                    {t('clients.link.expiry-days', { days })}
                  </option>
                ))}
                <option value="never">{t('clients.link.expiry-never')}</option>
              </select>
            </div>
            <button
              type="button"
              className="btn btn-sm btn-primary"
              disabled={busy}
              onClick={() => void create()}
            >
              {link ? t('clients.link.replace') : t('clients.link.create')}
            </button>
            {link && (
              <button
                type="button"
                className="btn btn-sm btn-outline-danger d-inline-flex align-items-center gap-1"
                disabled={busy}
                onClick={() => {
                  setAddress(null);
                  changes.revoke.mutate();
                }}
              >
                <Trash2 size={14} className="icon" aria-hidden />
                {t('clients.link.revoke')}
              </button>
            )}
            <div>
              <label className="form-label small mb-1" htmlFor={`${id}-language`}>
                {t('clients.link.language')}
              </label>
              <select
                id={`${id}-language`}
                className="form-select form-select-sm"
                value={(askedLanguage === undefined ? language : askedLanguage) ?? ''}
                onChange={(event) =>
                  pickLanguage(isLocale(event.target.value) ? event.target.value : null)
                }
              >
                <option value="">{t('clients.link.language-owner')}</option>
                {locales.map((locale) => (
                  <option key={locale} value={locale}>
                    {localeNames[locale]}
                  </option>
                ))}
              </select>
            </div>
          </div>
        )}
      </div>
    </section>
  );
}
