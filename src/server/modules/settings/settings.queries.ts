// What other modules may read of the settings. Changing them is settings.commands.ts's job.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { FirstRun } from '../../../shared/schemas/first-run.ts';
import { hasClients } from '../clients/clients.queries.ts';
import { readSetupState } from './settings.repository.ts';

export {
  readAllowRegistration,
  readBusiness,
  readBusinessSettings,
  readLanguage,
  readPreferences,
  readRates,
} from './settings.repository.ts';

/**
 * The setup awaits an owner who neither did nor skipped it and has no client: an account from
 * before the setup existed, with clients, is never sent there (migration 0029 marks it done).
 */
export async function readFirstRun(db: Kysely<Database>, userId: string): Promise<FirstRun> {
  const { mainCurrency, outcome } = await readSetupState(db, userId);
  const setupNeeded = outcome === null && !(await hasClients(db, userId));
  return { mainCurrency, setupNeeded };
}
