import { useEffect, useRef, useState } from 'react';
import type { AccountClientLink } from '../../../../shared/schemas/client-links.ts';
import { useFlash } from '../../../components/flash.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useAccountClientLinks, useRevokeClientLinks } from '../api/account-links.ts';

/** Made by another session or by an API token: what a thief with a session could have made. */
const madeElsewhere = (link: AccountClientLink) =>
  (link.madeBy.kind === 'session' && !link.madeBy.current) || link.madeBy.kind === 'token';

function MadeBy({ link }: { link: AccountClientLink }) {
  const { t, format } = useI18n();
  const { madeBy } = link;
  if (madeBy.kind === 'reminder') return <>{t('account.links.reminder')}</>;
  if (madeBy.kind === 'unknown') return <>{t('account.links.unknown')}</>;
  const name =
    madeBy.kind === 'token'
      ? t('account.links.token', { name: madeBy.device ?? '' })
      : (madeBy.device ?? '');
  return (
    <>
      {name}
      {madeBy.startedAt && madeBy.kind === 'session' && (
        <div className="small text-body-secondary">
          {t('account.links.signed-in', { moment: format.moment(madeBy.startedAt) })}
        </div>
      )}
      {madeBy.current && (
        <span className="badge text-bg-success ms-1">{t('account.links.this-device')}</span>
      )}
      {madeBy.ended && (
        <span className="badge text-bg-secondary ms-1">
          {t(madeBy.kind === 'token' ? 'account.links.token-revoked' : 'account.links.ended')}
        </span>
      )}
    </>
  );
}

/**
 * The live client links made in the last 30 days and who made each. A client's link outlives a
 * password change on purpose, so after one (`review`) the links made by other sessions and by
 * API tokens come selected, ready to revoke in one step.
 */
export function RecentClientLinks({ review }: { review: boolean }) {
  const links = useAccountClientLinks();
  const revoke = useRevokeClientLinks();
  const showFlash = useFlash();
  const { t, message, format } = useI18n();
  // Null until the owner ticks a box: the default follows the list as it loads.
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const intro = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (review) intro.current?.scrollIntoView({ block: 'nearest' });
  }, [review]);

  if (links.isPending) return <PageLoading />;
  if (links.isError)
    return <PageLoadError error={links.error} onRetry={() => void links.refetch()} />;
  const list = links.data.links;
  const selected =
    chosen ??
    new Set(review ? list.filter(madeElsewhere).map((link) => link.id) : ([] as string[]));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };
  const live = list.filter((link) => selected.has(link.id)).map((link) => link.id);

  return (
    <>
      <div ref={intro}>
        {review ? (
          <div className="alert alert-warning" role="status">
            {t('account.links.review')}
          </div>
        ) : (
          <p className="form-text mt-0">{t('account.links.intro')}</p>
        )}
      </div>
      {list.length === 0 ? (
        <p className="mb-0">{t('account.links.none')}</p>
      ) : (
        <>
          <div className="table-responsive">
            <table className="table align-middle" aria-label={t('account.links.table')}>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">{t('account.links.choose')}</span>
                  </th>
                  <th scope="col">{t('account.links.client')}</th>
                  <th scope="col">{t('account.links.made-by')}</th>
                  <th scope="col" className="d-none d-sm-table-cell">
                    {t('account.links.created')}
                  </th>
                  <th scope="col" className="d-none d-md-table-cell">
                    {t('account.links.expires')}
                  </th>
                  <th scope="col" className="d-none d-md-table-cell">
                    {t('account.links.last-opened')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((link) => (
                  <tr key={link.id}>
                    <td>
                      <input
                        type="checkbox"
                        className="form-check-input"
                        aria-label={t('account.links.select', { client: link.clientName })}
                        checked={selected.has(link.id)}
                        onChange={() => toggle(link.id)}
                      />
                    </td>
                    <td>{link.clientName}</td>
                    <td>
                      <MadeBy link={link} />
                    </td>
                    <td className="d-none d-sm-table-cell">{format.moment(link.createdAt)}</td>
                    <td className="d-none d-md-table-cell">
                      {link.expiresAt ? format.moment(link.expiresAt) : t('account.links.never')}
                    </td>
                    <td className="d-none d-md-table-cell">
                      {link.lastOpenedAt
                        ? format.moment(link.lastOpenedAt)
                        : t('account.links.not-opened')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button
            type="button"
            className="btn btn-outline-danger"
            disabled={live.length === 0 || revoke.isPending}
            onClick={() =>
              revoke.mutate(
                { ids: live },
                {
                  onSuccess: ({ revoked }) => {
                    setChosen(new Set());
                    showFlash(t('account.links.revoked', { count: revoked }), 'success');
                  },
                  onError: (error) => showFlash(message(error.message), 'danger'),
                },
              )
            }
          >
            {t('account.links.revoke')}
          </button>
        </>
      )}
    </>
  );
}
