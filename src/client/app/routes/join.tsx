import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { joinBodySchema } from '../../../shared/schemas/auth.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { useJoin } from '../../features/auth/api/sign-in.ts';
import { usePublicSettings } from '../../features/settings/api/settings.ts';
import { PageLoading } from '../../components/page-status.tsx';
import { CredentialsForm } from '../../features/auth/components/credentials-form.tsx';
import { safeNextPath } from '../../lib/next-path.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useI18n } from '../../i18n/use-i18n.ts';

export function JoinPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const join = useJoin();
  const publicSettings = usePublicSettings();
  const next = safeNextPath(location.search);
  const { t } = useI18n();
  useDocumentTitle(t('auth.join.title'));
  const invite = new URLSearchParams(location.search).get('invite') ?? undefined;

  if (session.data?.user && !join.isPending) return <Navigate to={next} replace />;
  if (publicSettings.isPending) return <PageLoading />;
  if (publicSettings.data?.allowRegistration === false && invite === undefined) {
    return (
      <div className="text-center py-5">
        <h1>{t('auth.join.closed')}</h1>
        <p className="text-body-secondary">{t('auth.join.ask-for-account')}</p>
        <Link to="/login">{t('auth.join.log-in')}</Link>
      </div>
    );
  }
  return (
    <CredentialsForm
      title={t('auth.join.title')}
      schema={joinBodySchema}
      passwordAutoComplete="new-password"
      intro={invite !== undefined && <p className="form-text mt-0">{t('auth.join.invited')}</p>}
      onSubmit={async (credentials) => {
        await join.mutateAsync({ ...credentials, invite });
        await navigate(next, { replace: true });
      }}
    />
  );
}
