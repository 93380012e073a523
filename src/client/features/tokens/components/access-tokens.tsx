import { useState, type FormEvent } from 'react';
import { ArrowLeft, Check, Copy, KeyRound, Plus, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import {
  tokenNameMaxLength,
  type AccessToken,
  type CreatedAccessToken,
  type TokenAccess,
} from '../../../../shared/schemas/access-tokens.ts';
import { useDocumentTitle } from '../../../components/document-title.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateToken, useRevokeToken, useTokens } from '../api/tokens.ts';

const when = (iso: string | null, never: string) =>
  iso === null ? never : new Date(iso).toLocaleString();

/** The end of the chosen day where the owner is: "expires on 31 May" means through 31 May. */
const endOfLocalDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();

const todayLocal = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

function NewTokenForm({ onCreated }: { onCreated: (created: CreatedAccessToken) => void }) {
  const createToken = useCreateToken();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<TokenAccess>('read');
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim().length === 0) {
      setErrors({ name: 'name required' });
      return;
    }
    setErrors({});
    try {
      const created = await createToken.mutateAsync({
        name,
        access,
        expiresAt: expiresOn ? endOfLocalDay(expiresOn) : null,
      });
      setName('');
      setExpiresOn('');
      onCreated(created);
    } catch (error) {
      setErrors(
        error instanceof ApiError && Object.keys(error.fields).length > 0
          ? error.fields
          : { form: error instanceof ApiError ? error.message : 'Creating the token failed' },
      );
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="New token">
      <div className="row g-3 align-items-start">
        <div className="col-12 col-md-5">
          <label htmlFor="token-name" className="form-label">
            Name
          </label>
          <input
            id="token-name"
            className={`form-control${errors.name ? ' is-invalid' : ''}`}
            maxLength={tokenNameMaxLength}
            placeholder="Accounting sync"
            value={name}
            aria-invalid={errors.name !== undefined}
            aria-describedby={errors.name ? 'token-name-error' : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          {errors.name && (
            <div id="token-name-error" className="invalid-feedback">
              {errors.name}
            </div>
          )}
        </div>
        <div className="col-6 col-md-3">
          <label htmlFor="token-access" className="form-label">
            Access
          </label>
          <select
            id="token-access"
            className="form-select"
            value={access}
            onChange={(event) => setAccess(event.target.value as TokenAccess)}
          >
            <option value="read">Read only</option>
            <option value="read-write">Read and write</option>
          </select>
        </div>
        <div className="col-6 col-md-4">
          <label htmlFor="token-expiry" className="form-label">
            Expires after (optional)
          </label>
          <input
            id="token-expiry"
            type="date"
            min={todayLocal()}
            className={`form-control${errors.expiresAt ? ' is-invalid' : ''}`}
            value={expiresOn}
            aria-invalid={errors.expiresAt !== undefined}
            onChange={(event) => setExpiresOn(event.target.value)}
          />
          {errors.expiresAt && <div className="invalid-feedback">{errors.expiresAt}</div>}
        </div>
      </div>
      {errors.form && (
        <div className="alert alert-danger py-2 mt-3 mb-0" role="alert">
          {errors.form}
        </div>
      )}
      <div className="d-flex flex-wrap gap-2 mt-3">
        <button
          type="submit"
          className="btn btn-primary d-inline-flex align-items-center gap-1"
          disabled={createToken.isPending}
        >
          <Plus size={16} className="icon" aria-hidden />
          Create token
        </button>
        <Link to="/setting" className="btn btn-outline-secondary">
          Cancel
        </Link>
      </div>
    </form>
  );
}

function CreatedToken({ created, onDone }: { created: CreatedAccessToken; onDone: () => void }) {
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
    <div className="alert alert-success" role="status" aria-label="New token">
      <p className="mb-2">
        <strong>{created.token.name}</strong> is ready. Copy it now: it is shown only this once.
      </p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          readOnly
          aria-label="Token"
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
          {copied === 'yes' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copied === 'failed' && (
        <p className="small mb-2">Copying is not allowed here; select the token and copy it.</p>
      )}
      <button type="button" className="btn btn-sm btn-success" onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function TokenTable({
  tokens,
  onRevoke,
}: {
  tokens: AccessToken[];
  onRevoke: (token: AccessToken) => void;
}) {
  // When the list was first shown: enough to mark tokens already expired.
  const [now] = useState(() => Date.now());
  if (tokens.length === 0) return <p className="text-body-secondary mb-0">No tokens yet.</p>;
  return (
    <div className="table-responsive">
      <table className="table align-middle mb-0" aria-label="Tokens">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="d-none d-md-table-cell">
              Access
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              Created
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              Last used
            </th>
            <th scope="col" className="d-none d-md-table-cell">
              Expires
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {tokens.map((token) => {
            const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now;
            const access = token.access === 'read' ? 'Read only' : 'Read and write';
            return (
              <tr key={token.id}>
                <td className="text-break">
                  {token.name}
                  {/* A phone has no room for the columns: the same facts, under the name. */}
                  <span className="d-block d-md-none small text-body-secondary">
                    {access} · last used {when(token.lastUsedAt, 'never')} ·{' '}
                    {expired ? 'expired' : `expires ${when(token.expiresAt, 'never')}`}
                  </span>
                </td>
                <td className="d-none d-md-table-cell">{access}</td>
                <td className="d-none d-md-table-cell">{when(token.createdAt, '')}</td>
                <td className="d-none d-md-table-cell">{when(token.lastUsedAt, 'Never')}</td>
                <td className="d-none d-md-table-cell">
                  {expired ? (
                    <span className="badge text-bg-secondary">Expired</span>
                  ) : (
                    when(token.expiresAt, 'Never')
                  )}
                </td>
                <td className="text-end">
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger d-inline-flex align-items-center gap-1"
                    aria-label={`Revoke ${token.name}`}
                    onClick={() => onRevoke(token)}
                  >
                    <Trash2 size={14} className="icon" aria-hidden />
                    Revoke
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

export function AccessTokens() {
  const tokens = useTokens();
  const revokeToken = useRevokeToken();
  const showFlash = useFlash();
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  useDocumentTitle('API tokens');

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revokeToken.mutateAsync(revoking.id);
      showFlash('Token revoked', 'success');
    } catch {
      showFlash('Revoking Failed', 'danger');
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
              API tokens
            </h1>
          </div>
          <div className="card-body">
            <p>
              A token lets a script or another program use your data through the API, as you: send
              it as <code>Authorization: Bearer &lt;token&gt;</code>. A read-only token can look but
              not change anything. Revoke a token you no longer use or that may have leaked. The{' '}
              <a href="/api/docs">API reference</a> lists every call.
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
            <h2 className="h6 mb-0">Your tokens</h2>
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
            Back to settings
          </Link>
        </p>
        <Modal
          open={revoking !== null}
          title="Revoke token?"
          onClose={() => setRevoking(null)}
          actions={
            <button
              type="button"
              className="btn btn-sm btn-danger d-inline-flex align-items-center gap-1"
              disabled={revokeToken.isPending}
              onClick={() => void confirmRevoke()}
            >
              <Trash2 size={14} className="icon" aria-hidden />
              Revoke
            </button>
          }
        >
          {revoking ? `"${revoking.name}" stops working at once.` : null}
        </Modal>
      </div>
    </div>
  );
}
