import { Navigate, useLocation, useNavigate } from 'react-router';
import { loginBodySchema } from '../../../shared/schemas/auth.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { useLogin } from '../../features/auth/api/sign-in.ts';
import { CredentialsForm } from '../../features/auth/components/credentials-form.tsx';
import { ForgotPassword } from '../../features/auth/components/forgot-password-form.tsx';
import { usePublicSettings } from '../../features/settings/api/settings.ts';
import { safeNextPath } from '../../lib/next-path.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useI18n } from '../../i18n/use-i18n.ts';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const login = useLogin();
  const publicSettings = usePublicSettings();
  const next = safeNextPath(location.search);
  const { t } = useI18n();
  useDocumentTitle(t('auth.login.title'));

  if (session.data?.user && !login.isPending) return <Navigate to={next} replace />;
  return (
    <CredentialsForm
      title={t('auth.login.heading')}
      schema={loginBodySchema}
      passwordAutoComplete="current-password"
      onSubmit={async (credentials) => {
        await login.mutateAsync(credentials);
        await navigate(next, { replace: true });
      }}
      footer={
        publicSettings.data?.passwordResetByEmail ? (
          <ForgotPassword />
        ) : (
          // No mail server (or no PUBLIC_URL): the administrator hands over a reset link instead.
          <p className="mt-3 mb-0 small text-body-secondary">
            {t('auth.login.ask-for-reset-link')}
          </p>
        )
      }
    />
  );
}
