import type { Migration } from 'kysely/migration';
import * as accounts from './0001-accounts.ts';
import * as clients from './0002-clients.ts';
import * as settings from './0003-settings.ts';
import * as clientListIndexes from './0004-client-list-indexes.ts';
import * as ledger from './0005-ledger.ts';
import * as expiryIndexes from './0006-expiry-indexes.ts';
import * as idempotencyKeys from './0007-idempotency-keys.ts';
import * as ageing from './0015-ageing.ts';

/** Every migration in order; the key is its permanent name. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-clients': clients,
  '0003-settings': settings,
  '0004-client-list-indexes': clientListIndexes,
  '0005-ledger': ledger,
  '0006-expiry-indexes': expiryIndexes,
  '0007-idempotency-keys': idempotencyKeys,
  '0015-ageing': ageing,
};
