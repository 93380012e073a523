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
export async function readFirstRun(db: Kysely<Database>, bookId: string | null): Promise<FirstRun> {
  // A person in no book (every membership removed) has nothing to set up.
  if (bookId === null)
    return { mainCurrency: (await readSetupState(db, '')).mainCurrency, setupNeeded: false };
  const { mainCurrency, outcome } = await readSetupState(db, bookId);
  const setupNeeded = outcome === null && !(await hasClients(db, bookId));
  return { mainCurrency, setupNeeded };
}

export async function readPreferences(db: Executor, bookId: string): Promise<Preferences> {
  const row = await db
    .selectFrom('book_settings')
    .selectAll()
    .where('book_id', '=', bookId)
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
  bookId: string,
): Promise<Required<Omit<Business, 'mainCurrency'>>> {
  const row = await db
    .selectFrom('book_settings')
    .select(['business_name', 'business_address', 'business_payment_details', 'business_tax_id'])
    .where('book_id', '=', bookId)
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
  bookId: string,
): Promise<Required<Business>> {
  const [business, { mainCurrency }] = await Promise.all([
    readBusiness(db, bookId),
    readSetupState(db, bookId),
  ]);
  return { ...business, mainCurrency };
}

/** The last day of the book's closed period (YYYY-MM-DD), or null when nothing is closed. */
export async function readLockDate(db: Executor, bookId: string): Promise<string | null> {
  const row = await db
    .selectFrom('books')
    .select('lock_date')
    .where('id', '=', bookId)
    .executeTakeFirst();
  return row?.lock_date ?? null;
}

/** A person's own language: their screens. Null, or one no longer offered, follows the browser. */
export async function readPersonLanguage(db: Executor, userId: string): Promise<Locale | null> {
  const row = await db
    .selectFrom('users')
    .select('language')
    .where('id', '=', userId)
    .executeTakeFirst();
  return isLocale(row?.language) ? row.language : null;
}

/** The book's language, which its clients receive. Null, or one no longer offered: the browser's. */
export async function readLanguage(db: Executor, bookId: string): Promise<Locale | null> {
  const row = await db
    .selectFrom('book_settings')
    .select('language')
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return isLocale(row?.language) ? row.language : null;
}

async function readSetupState(
  db: Executor,
  bookId: string,
): Promise<{ mainCurrency: Currency; outcome: SetupOutcome | null }> {
  const row = await db
    .selectFrom('book_settings')
    .select(['main_currency', 'setup_outcome'])
    .where('book_id', '=', bookId)
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

export async function readRates(db: Executor, bookId: string): Promise<ExchangeRate[]> {
  const rows = await db
    .selectFrom('exchange_rates')
    .selectAll()
    .where('book_id', '=', bookId)
    .orderBy('currency')
    .execute();
  return rows.map((row) => ({
    currency: row.currency as ExchangeRate['currency'],
    usdPerUnit: row.usd_per_unit,
    date: row.rate_date,
  }));
}
