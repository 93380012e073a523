// What other modules may read of the settings. Changing them is settings.commands.ts's job, with
// the SQL of settings.repository.ts.
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import type { FirstRun } from '../../../shared/schemas/first-run.ts';
import { hasClients } from '../clients/clients.queries.ts';
import {
  defaultPreferences,
  type Business,
  type ExchangeRate,
  type Preferences,
} from '../../../shared/schemas/settings.ts';
import { isLocale, type Locale } from '../../../shared/locales.ts';
import { isCurrency, type Currency } from '../../../shared/money.ts';
import type { SetupOutcome } from './settings.table.ts';

/**
 * The setup awaits an owner who neither did nor skipped it and has no client: an account from
 * before the setup existed, with clients, is never sent there (migration 0029 marks it done).
 */
export async function readFirstRun(db: Kysely<Database>, userId: string): Promise<FirstRun> {
  const { mainCurrency, outcome } = await readSetupState(db, userId);
  const setupNeeded = outcome === null && !(await hasClients(db, userId));
  return { mainCurrency, setupNeeded };
}

export async function readPreferences(db: Executor, userId: string): Promise<Preferences> {
  const row = await db
    .selectFrom('user_preferences')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return defaultPreferences;
  return {
    disableBalanceOnAdd: row.disable_balance_on_add === 1,
    disableBalanceOnEdit: row.disable_balance_on_edit === 1,
  };
}

/** The business as a statement shows it. */
export async function readBusiness(
  db: Executor,
  userId: string,
): Promise<Required<Omit<Business, 'mainCurrency'>>> {
  const row = await db
    .selectFrom('user_preferences')
    .select(['business_name', 'business_address', 'business_payment_details', 'business_tax_id'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row
    ? {
        name: row.business_name,
        address: row.business_address,
        paymentDetails: row.business_payment_details,
        taxId: row.business_tax_id,
      }
    : { name: '', address: '', paymentDetails: '', taxId: '' };
}

/** The business as Settings and the export file hold it: with its main currency. */
export async function readBusinessSettings(
  db: Executor,
  userId: string,
): Promise<Required<Business>> {
  const [business, { mainCurrency }] = await Promise.all([
    readBusiness(db, userId),
    readSetupState(db, userId),
  ]);
  return { ...business, mainCurrency };
}

/** Null, also for a language no longer offered, follows the browser. */
export async function readLanguage(db: Executor, userId: string): Promise<Locale | null> {
  const row = await db
    .selectFrom('user_preferences')
    .select('language')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return isLocale(row?.language) ? row.language : null;
}

async function readSetupState(
  db: Executor,
  userId: string,
): Promise<{ mainCurrency: Currency; outcome: SetupOutcome | null }> {
  const row = await db
    .selectFrom('user_preferences')
    .select(['main_currency', 'setup_outcome'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return {
    mainCurrency: isCurrency(row?.main_currency) ? row.main_currency : 'USD',
    outcome: row?.setup_outcome ?? null,
  };
}

export async function readAllowRegistration(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', 'allow_registration')
    .executeTakeFirst();
  return row ? row.value === 'true' : true;
}

export async function readRates(db: Executor, ownerId: string): Promise<ExchangeRate[]> {
  const rows = await db
    .selectFrom('exchange_rates')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({
    currency: row.currency as ExchangeRate['currency'],
    usdPerUnit: row.usd_per_unit,
    date: row.rate_date,
  }));
}
