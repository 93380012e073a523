// A book's members and invitations change through the write path like the rest of its data:
// each change is an event of the book (`members_changed`), so the trail shows who let whom in.
import type { Transaction } from 'kysely';
import type { BookRole } from '../../../shared/schemas/books.ts';
import type { MemberDetail } from '../../../shared/schemas/events.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { command } from '../events/write-path.ts';
import { clientsOfBook, countOwners, findMemberRole } from './books.queries.ts';
import { insertMember } from './books.repository.ts';

const memberNotFound = () => notFound('No such member of this book');
const invitationNotFound = () => notFound('No such invitation');

/** A change of the book's members, as its event records it: of no client. */
const membersChanged = (member: MemberDetail) => ({
  clientId: null,
  action: 'members_changed' as const,
  version: 0,
  before: null,
  after: null,
  member,
});

function lastOwner(): AppError {
  return new AppError(
    409,
    'conflict',
    'A book always has at least one owner; make someone else an owner first',
  );
}

/** Only a collector has clients of their own; each must be a client of the book. */
async function checkedClients(
  trx: Transaction<Database>,
  bookId: string,
  role: BookRole,
  clientIds: readonly string[] | undefined,
): Promise<string[]> {
  if (role !== 'collector') return [];
  const wanted = [...new Set(clientIds ?? [])];
  const found = new Set(await clientsOfBook(trx, bookId, wanted));
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new AppError(400, 'validation', 'Invalid clientIds', {
      fields: { clientIds: 'Choose clients of this book.' },
    });
  }
  return wanted;
}

async function assignClients(
  trx: Transaction<Database>,
  bookId: string,
  userId: string,
  clientIds: readonly string[],
): Promise<void> {
  await trx
    .deleteFrom('collector_clients')
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .execute();
  if (clientIds.length === 0) return;
  await trx
    .insertInto('collector_clients')
    .values(
      clientIds.map((clientId) => ({ book_id: bookId, user_id: userId, client_id: clientId })),
    )
    .execute();
}

export const inviteMember = command(
  async (
    { trx, record, now },
    bookId,
    invitation: {
      id: string;
      email: string;
      emailKey: string;
      role: BookRole;
      clientIds?: string[] | undefined;
      tokenHash: string;
      invitedBy: string;
      expiresAt: number;
    },
  ) => {
    const member = await trx
      .selectFrom('book_members')
      .innerJoin('users', 'users.id', 'book_members.user_id')
      .select('users.id')
      .where('book_members.book_id', '=', bookId)
      .where('users.email_key', '=', invitation.emailKey)
      .executeTakeFirst();
    if (member) {
      throw new AppError(409, 'conflict', 'This person is already a member of this book', {
        fields: { email: 'is already a member of this book' },
      });
    }
    const clientIds = await checkedClients(trx, bookId, invitation.role, invitation.clientIds);
    await trx
      .insertInto('book_invitations')
      .values({
        id: invitation.id,
        book_id: bookId,
        email: invitation.email,
        email_key: invitation.emailKey,
        role: invitation.role,
        client_ids: JSON.stringify(clientIds),
        token_hash: invitation.tokenHash,
        invited_by: invitation.invitedBy,
        created_at: now,
        expires_at: invitation.expiresAt,
      })
      .execute();
    await record(
      membersChanged({ change: 'invited', email: invitation.email, role: invitation.role }),
    );
    return { clientIds, createdAt: now };
  },
);

export const revokeInvitation = command(async ({ trx, record, now }, bookId, id: string) => {
  const row = await trx
    .updateTable('book_invitations')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning(['email', 'role'])
    .executeTakeFirst();
  if (!row) throw invitationNotFound();
  await record(membersChanged({ change: 'invitation_revoked', email: row.email, role: row.role }));
});

async function memberEmail(trx: Transaction<Database>, userId: string): Promise<string> {
  const row = await trx
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.email ?? '';
}

export const changeMember = command(
  async (
    { trx, record },
    bookId,
    userId: string,
    change: { role: BookRole; clientIds?: string[] | undefined },
  ) => {
    const before = await findMemberRole(trx, bookId, userId);
    if (!before) throw memberNotFound();
    if (before === 'owner' && change.role !== 'owner' && (await countOwners(trx, bookId)) <= 1) {
      throw lastOwner();
    }
    const clientIds = await checkedClients(trx, bookId, change.role, change.clientIds);
    await trx
      .updateTable('book_members')
      .set({ role: change.role })
      .where('book_id', '=', bookId)
      .where('user_id', '=', userId)
      .execute();
    await assignClients(trx, bookId, userId, clientIds);
    await record(
      membersChanged({
        change: 'role_changed',
        email: await memberEmail(trx, userId),
        role: change.role,
        userId,
      }),
    );
  },
);

export const removeMember = command(async ({ trx, record }, bookId, userId: string) => {
  const role = await findMemberRole(trx, bookId, userId);
  if (!role) throw memberNotFound();
  if (role === 'owner' && (await countOwners(trx, bookId)) <= 1) throw lastOwner();
  // Their collector clients go with the membership (the reference cascades).
  await trx
    .deleteFrom('book_members')
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .execute();
  await trx
    .updateTable('sessions')
    .set({ book_id: null })
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .execute();
  await trx
    .deleteFrom('access_tokens')
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .execute();
  await record(
    membersChanged({ change: 'removed', email: await memberEmail(trx, userId), role, userId }),
  );
});

/** Taken once: a second use, a revoked or an expired one finds nothing to take. */
export const acceptInvitation = command(
  async ({ trx, record, now }, bookId, accepted: { invitationId: string; userId: string }) => {
    const invitation = await trx
      .updateTable('book_invitations')
      .set({ accepted_at: now, accepted_by: accepted.userId })
      .where('id', '=', accepted.invitationId)
      .where('book_id', '=', bookId)
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['email', 'role', 'client_ids'])
      .executeTakeFirst();
    if (!invitation) throw invalidInvitation();
    if (await findMemberRole(trx, bookId, accepted.userId)) {
      throw new AppError(409, 'conflict', 'You are already a member of this book');
    }
    await insertMember(trx, { bookId, userId: accepted.userId, role: invitation.role, now });
    const named = JSON.parse(invitation.client_ids) as string[];
    // A client deleted since the invitation was sent is left out.
    const clientIds =
      invitation.role === 'collector' ? await clientsOfBook(trx, bookId, named) : [];
    await assignClients(trx, bookId, accepted.userId, clientIds);
    await record(
      membersChanged({
        change: 'joined',
        email: await memberEmail(trx, accepted.userId),
        role: invitation.role,
        userId: accepted.userId,
      }),
    );
  },
);

export function invalidInvitation(): AppError {
  return new AppError(
    404,
    'invalid_link',
    'This invitation is not valid: it may have been used or revoked, or have expired',
  );
}
