import { Navigate, useLocation, useNavigate } from 'react-router';
import { loginBodySchema } from '../../../shared/schemas/auth.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { useLogin } from '../../features/auth/api/sign-in.ts';
import { CredentialsForm } from '../../features/auth/components/credentials-form.tsx';
import { safeNextPath } from '../../lib/next-path.ts';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const login = useLogin();
  const next = safeNextPath(location.search);

  if (session.data?.user && !login.isPending) return <Navigate to={next} replace />;
  return (
    <CredentialsForm
      title="Login"
      schema={loginBodySchema}
      passwordAutoComplete="current-password"
      onSubmit={async (credentials) => {
        await login.mutateAsync(credentials);
        await navigate(next, { replace: true });
      }}
    />
  );
}
