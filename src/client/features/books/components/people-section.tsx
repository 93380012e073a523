import { Link } from 'react-router';
import { PageLoadError } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { Section } from '../../../components/settings-card.tsx';
import { useBookMembers } from '../api/members.ts';
import { InvitationList } from './invitation-list.tsx';
import { InviteForm } from './invite-form.tsx';
import { MemberList } from './member-list.tsx';

/**
 * Settings' "People", an owner's only: alone in the book, a line and the invitation form (a solo
 * owner sees no word of roles elsewhere); with others, the members and invitations above it.
 */
export function PeopleSection() {
  const { t } = useI18n();
  const people = useBookMembers();
  const alone =
    people.data !== undefined &&
    people.data.members.length <= 1 &&
    people.data.invitations.length === 0;
  return (
    <Section title={t('books.people.title')} help={t('books.people.help')}>
      {people.isError && (
        <PageLoadError error={people.error} onRetry={() => void people.refetch()} />
      )}
      {people.isSuccess && !alone && (
        <>
          <h3 className="h6">{t('books.people.members')}</h3>
          <MemberList members={people.data.members} />
          <InvitationList invitations={people.data.invitations} />
          <p>
            <Link to="/setting/activity">{t('books.activity.link')}</Link>
          </p>
        </>
      )}
      <InviteForm />
    </Section>
  );
}
