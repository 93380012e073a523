import { clientName } from '../../../../shared/names.ts';
import type { Activity } from '../../../../shared/schemas/members.ts';
import { entryKindTexts } from '../../../components/entry-kind-texts.ts';
import type { useI18n } from '../../../i18n/use-i18n.ts';
import { roleTexts } from './role-texts.ts';

export type ActivityEvent = Activity['events'][number];
type Texts = Pick<ReturnType<typeof useI18n>, 't' | 'format'>;

/** One sentence per act, naming the client from the event's own snapshot (it may be gone). */
export function describeActivity(event: ActivityEvent, { t, format }: Texts): string {
  const snapshot = event.after ?? event.before;
  const client = snapshot ? clientName(snapshot) : t('books.activity.a-client');
  const entry = event.entry;
  const amount = entry ? format.money(Math.abs(entry.amount), entry.currency) : '';
  switch (event.action) {
    case 'created':
      return t('books.activity.created', { client });
    case 'edited':
      return t('books.activity.edited', { client });
    case 'deleted':
      return t('books.activity.deleted', { client });
    case 'imported':
      return t('books.activity.imported', { client });
    case 'restored':
      return t('books.activity.restored', { client });
    case 'balance_changed':
      return snapshot
        ? t('books.activity.balance-changed', {
            client,
            balance: format.money(snapshot.balance, snapshot.currency),
          })
        : t('books.activity.other');
    case 'entry_recorded':
      return entry
        ? t('books.activity.entry-recorded', {
            kind: entryKindTexts(t)[entry.kind].inSentence,
            amount,
            client,
          })
        : t('books.activity.other');
    case 'entry_voided':
      return entry
        ? t('books.activity.entry-voided', { amount, client })
        : t('books.activity.other');
    case 'statement_sent':
      return t('books.activity.statement-sent', { client });
    case 'link_created':
      return t('books.activity.link-created', { client });
    case 'link_revoked':
      return t('books.activity.link-revoked', { client });
    case 'link_opened':
      return t('books.activity.link-opened', { client });
    case 'language_set':
      return t('books.activity.language-set', { client });
    case 'reminder_sent':
      return t('books.activity.reminder-sent', { client });
    case 'reminder_failed':
      return t('books.activity.reminder-failed', { client });
    case 'reminders_changed':
      return t('books.activity.reminders-changed', { client });
    case 'settings_changed':
      return t('books.activity.settings-changed');
    case 'members_changed':
      return event.member ? memberText(event.member, t) : t('books.activity.other');
    case 'lock_date_set':
      if (!event.closing) return t('books.activity.other');
      return event.closing.lockDate === null
        ? t('books.activity.reopened')
        : t('books.activity.closed', { date: format.day(event.closing.lockDate) });
    default:
      return t('books.activity.other');
  }
}

function memberText(member: NonNullable<ActivityEvent['member']>, t: Texts['t']): string {
  const values = { email: member.email, role: roleTexts(t)[member.role].name };
  switch (member.change) {
    case 'invited':
      return t('books.activity.member-invited', values);
    case 'invitation_revoked':
      return t('books.activity.member-invitation-revoked', values);
    case 'joined':
      return t('books.activity.member-joined', values);
    case 'role_changed':
      return t('books.activity.member-role-changed', values);
    case 'removed':
      return t('books.activity.member-removed', values);
  }
}
