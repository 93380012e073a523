import { useDocumentTitle } from '../../components/document-title.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { InviteForm } from '../../features/admin/components/invite-form.tsx';
import { UserList } from '../../features/admin/components/user-list.tsx';

export function AdminUsersPage() {
  useDocumentTitle('Users');
  const session = useSession();
  if (!session.data?.user?.isAdmin) {
    return (
      <>
        <h1 className="h4 mb-3">Users</h1>
        <div className="alert alert-warning" role="alert">
          Only the administrator of this Balance can see its accounts.
        </div>
      </>
    );
  }
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-10">
        <h1 className="h4 mb-3">Users</h1>
        <section className="card mb-4" aria-label="Accounts">
          <div className="card-body">
            <p className="text-body-secondary">
              A disabled account is signed out at once and cannot log in until it is enabled. A
              reset link lets its holder choose a new password once, within 24 hours, and signs that
              account out everywhere.
            </p>
            <UserList />
          </div>
        </section>
        <section className="card mb-4" aria-label="Invitations">
          <div className="card-header">
            <h2 className="h6 mb-0">Invite someone</h2>
          </div>
          <div className="card-body">
            <p className="text-body-secondary">
              An invitation lets one e-mail join once, within 7 days, even while registration is
              closed.
            </p>
            <InviteForm />
          </div>
        </section>
      </div>
    </div>
  );
}
