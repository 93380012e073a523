import { useDocumentTitle } from '../../components/document-title.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { InviteForm } from '../../features/admin/components/invite-form.tsx';
import { UserList } from '../../features/admin/components/user-list.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';

export function AdminUsersPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.users.title'));
  const session = useSession();
  if (!session.data?.user?.isAdmin) {
    return (
      <>
        <h1 className="h4 mb-3">{t('admin.users.title')}</h1>
        <div className="alert alert-warning" role="alert">
          {t('admin.users.only-administrator')}
        </div>
      </>
    );
  }
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-10">
        <h1 className="h4 mb-3">{t('admin.users.title')}</h1>
        <section className="card mb-4" aria-label={t('admin.users.accounts')}>
          <div className="card-body">
            <p className="text-body-secondary">{t('admin.users.explanation')}</p>
            <UserList />
          </div>
        </section>
        <section className="card mb-4" aria-label={t('admin.invitations.label')}>
          <div className="card-header">
            <h2 className="h6 mb-0">{t('admin.invitations.title')}</h2>
          </div>
          <div className="card-body">
            <p className="text-body-secondary">{t('admin.invitations.explanation')}</p>
            <InviteForm />
          </div>
        </section>
      </div>
    </div>
  );
}
