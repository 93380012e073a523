import { useState } from 'react';
import { I18nProvider, Trans } from '@lingui/react';
import { i18n } from '../../../i18n/i18n.ts';
import { ArrowLeft, KeyRound, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { AccessToken, CreatedAccessToken } from '../../../../shared/schemas/access-tokens.ts';
import { useDocumentTitle } from '../../../components/document-title.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { apiAddress } from '../../../lib/api-client.ts';
import { useRevokeToken, useTokens } from '../api/tokens.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { CreatedToken, NewTokenForm } from './new-token.tsx';

function TokenTable({
  tokens,
  onRevoke,
}: {
  tokens: AccessToken[];
  onRevoke: (token: AccessToken) => void;
}) {
  const { t, format } = useI18n();
  // When the list was first shown: enough to mark tokens already expired.
  const [now] = useState(() => Date.now());
  const when = (iso: string | null, never: string) => (iso === null ? never : format.moment(iso));
  if (tokens.length === 0) return <p className="text-body-secondary mb-0">{t('tokens.none')}</p>;
  return (
    <div className="table-responsive">
      <table className="table align-middle mb-0" aria-label={t('tokens.tokens')}>
        <thead>
          <tr>
            <th scope="col">{t('tokens.name')}</th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('tokens.access')}
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('tokens.created')}
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('tokens.last-used')}
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              {t('tokens.expires')}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t('tokens.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
            const access = token.access === 'read' ? t('tokens.read-only') : t('tokens.read-write');
            return (
              <tr key={token.id}>
                <td className="text-break">
                  {token.name}
                  {/* A phone has no room for the columns: the same facts, under the name. */}
                  <span className="d-block d-md-none small text-body-secondary">
                    {t('tokens.summary', {
                      access,
                      lastUsed: when(token.lastUsedAt, t('tokens.summary-never')),
                      expiry: expired
                        ? t('tokens.summary-expired')
                        : t('tokens.summary-expires', {
                            when: when(token.expiresAt, t('tokens.summary-never')),
                          }),
                    })}
                  </span>
                </td>
                <td className="d-none d-md-table-cell">{access}</td>
                <td className="d-none d-md-table-cell">{when(token.createdAt, '')}</td>
                <td className="d-none d-md-table-cell">
                  {when(token.lastUsedAt, t('tokens.never'))}
                </td>
                <td className="d-none d-md-table-cell">
                  {expired ? (
                    <span className="badge text-bg-secondary">{t('tokens.expired')}</span>
                  ) : (
                    when(token.expiresAt, t('tokens.never'))
                  )}
                </td>
                <td className="text-end">
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger d-inline-flex align-items-center gap-1"
                    aria-label={t('tokens.revoke-named', { name: token.name })}
                    onClick={() => onRevoke(token)}
                  >
                    <Trash2 size={14} className="icon" aria-hidden />
                    {t('tokens.revoke')}
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** An HTTP header as a script sends it: the same in every language. */
const bearerHeader = 'Authorization: Bearer <token>'; // i18n-ignore: HTTP syntax, not words

/** The tokens page; Lingui's provider serves the <Trans> sentences that hold markup. */
export function TokenList() {
  return (
    <I18nProvider i18n={i18n}>
      <AccessTokensPage />
    </I18nProvider>
  );
}

function AccessTokensPage() {
  const { t } = useI18n();
  const tokens = useTokens();
  const revokeToken = useRevokeToken();
  const showFlash = useFlash();
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  useDocumentTitle(t('tokens.title'));

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revokeToken.mutateAsync(revoking.id);
      showFlash(t('tokens.revoked'), 'success');
    } catch {
      showFlash(t('tokens.revoke-failed'), 'danger');
    }
    setRevoking(null);
  };

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-10">
        <div className="card mb-4">
          <div className="card-header">
            <h1 className="h5 mb-0 d-flex align-items-center gap-2">
              <KeyRound size={20} className="icon text-primary" aria-hidden />
              {t('tokens.title')}
            </h1>
          </div>
          <div className="card-body">
            <p>
              <Trans
                id="tokens.intro"
                values={{
                  header: <code>{bearerHeader}</code>,
                  reference: (
                    <a href={apiAddress(apiRoutes.apiDocs)}>{t('tokens.api-reference')}</a>
                  ),
                }}
              />
            </p>
            {created ? (
              <CreatedToken created={created} onDone={() => setCreated(null)} />
            ) : (
              <NewTokenForm onCreated={setCreated} />
            )}
          </div>
        </div>
        <div className="card">
          <div className="card-header">
            <h2 className="h6 mb-0">{t('tokens.yours')}</h2>
          </div>
          <div className="card-body">
            {tokens.isPending ? (
              <PageLoading />
            ) : tokens.isError ? (
              <PageLoadError error={tokens.error} onRetry={() => void tokens.refetch()} />
            ) : (
              <TokenTable tokens={tokens.data.tokens} onRevoke={setRevoking} />
            )}
          </div>
        </div>
        <p className="mt-3">
          <Link to="/setting" className="d-inline-flex align-items-center gap-1">
            <ArrowLeft size={16} className="icon" aria-hidden />
            {t('tokens.back')}
          </Link>
        </p>
        <Modal
          open={revoking !== null}
          title={t('tokens.revoke-title')}
          onClose={() => setRevoking(null)}
          actions={
            <button
              type="button"
              className="btn btn-sm btn-danger d-inline-flex align-items-center gap-1"
              disabled={revokeToken.isPending}
              onClick={() => void confirmRevoke()}
            >
              <Trash2 size={14} className="icon" aria-hidden />
              {t('tokens.revoke')}
            </button>
          }
        >
          {revoking ? t('tokens.revoke-body', { name: revoking.name }) : null}
        </Modal>
      </div>
    </div>
  );
}
