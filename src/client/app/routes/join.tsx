import { Navigate, useLocation, useNavigate } from 'react-router';
import { joinBodySchema } from '../../../shared/schemas/auth.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { useJoin } from '../../features/auth/api/sign-in.ts';
import { CredentialsForm } from '../../features/auth/components/credentials-form.tsx';
import { safeNextPath } from '../../lib/next-path.ts';

export function JoinPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const join = useJoin();
  const next = safeNextPath(location.search);

  if (session.data?.user && !join.isPending) return <Navigate to={next} replace />;
  return (
    <CredentialsForm
      title="Join"
      schema={joinBodySchema}
      passwordAutoComplete="new-password"
      onSubmit={async (credentials) => {
        await join.mutateAsync(credentials);
        await navigate(next, { replace: true });
      }}
    />
  );
}
