// What this module's routes (and later the reminders) read of the client links.
export {
  findCurrentLink,
  findLinkBySecretHash,
  listRecentLinks,
} from './client-links.repository.ts';
export type { ClientLinkRow } from './client-links.repository.ts';
