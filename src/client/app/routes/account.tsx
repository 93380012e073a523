import { useState, type ReactNode } from 'react';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useSession } from '../../features/auth/api/session.ts';
import { useI18n } from '../../i18n/use-i18n.ts';
import {
  ChangeEmailForm,
  ChangePasswordForm,
} from '../../features/account/components/account-forms.tsx';
import { DeleteAccount } from '../../features/account/components/delete-account.tsx';
import { RecentClientLinks } from '../../features/client-links/components/recent-client-links.tsx';
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
  const { t } = useI18n();
  useDocumentTitle(t('account.title'));
  const email = useSession().data?.user?.email ?? '';
  // Counts password changes: each one opens the list of links afresh, its suspects selected.
  const [passwordChanges, setPasswordChanges] = useState(0);
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-9">
        <h1 className="h4 mb-3">{t('account.title')}</h1>
        <p className="text-body-secondary text-break">{t('account.signed-in-as', { email })}</p>
        <Section title={t('account.sessions.title')}>
          <SessionList />
        </Section>
        <div className="row">
          <div className="col-12 col-md-6">
            <Section title={t('account.password.title')}>
              <ChangePasswordForm onChanged={() => setPasswordChanges((count) => count + 1)} />
            </Section>
          </div>
          <div className="col-12 col-md-6">
            <Section title={t('account.email.title')}>
              <ChangeEmailForm key={email} email={email} />
            </Section>
          </div>
        </div>
        <Section title={t('account.links.title')}>
          <RecentClientLinks key={passwordChanges} review={passwordChanges > 0} />
        </Section>
        <Section title={t('account.delete.title')}>
          <DeleteAccount />
        </Section>
      </div>
    </div>
  );
}
