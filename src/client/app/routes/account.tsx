import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useSession } from '../../features/auth/api/session.ts';
import {
  ChangeEmailForm,
  ChangePasswordForm,
} from '../../features/account/components/account-forms.tsx';
import { DeleteAccount } from '../../features/account/components/delete-account.tsx';
import { SessionList } from '../../features/account/components/session-list.tsx';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card mb-4" aria-label={title}>
      <div className="card-header">
        <h2 className="h6 mb-0">{title}</h2>
      </div>
      <div className="card-body">{children}</div>
    </section>
  );
}

export function AccountPage() {
  useDocumentTitle('Account');
  const email = useSession().data?.user?.email ?? '';
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-9">
        <h1 className="h4 mb-3">Account</h1>
        <p className="text-body-secondary text-break">Signed in as {email}</p>
        <Section title="Where you are signed in">
          <SessionList />
        </Section>
        <div className="row">
          <div className="col-12 col-md-6">
            <Section title="Password">
              <ChangePasswordForm />
            </Section>
          </div>
          <div className="col-12 col-md-6">
            <Section title="E-mail">
              <ChangeEmailForm key={email} email={email} />
            </Section>
          </div>
        </div>
        <Section title="Delete account">
          <DeleteAccount />
        </Section>
      </div>
    </div>
  );
}
