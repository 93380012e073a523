import type { Migration } from 'kysely/migration';
import * as accounts from './0001-accounts.ts';

/** Every migration in order; the key is its permanent name. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
};
