import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { touchLastOpened } from './client-links.repository.ts';

// "Last opened" is the link's use, like a token's last use: kept outside the write path (it is
// no change of the owner's data and records no event), to the minute. The history's event is
// recordLinkOpened's, at most once an hour.
const lastOpenedEveryMs = 60_000;

export async function noteLinkOpened(db: Kysely<Database>, linkId: string, now: number) {
  await touchLastOpened(db, linkId, now, lastOpenedEveryMs);
}
