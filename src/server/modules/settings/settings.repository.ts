import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import {
  defaultPreferences,
  type Business,
  type ExchangeRate,
  type Preferences,
} from '../../../shared/schemas/settings.ts';
import { isLocale, type Locale } from '../../../shared/locales.ts';
import { isCurrency, type Currency } from '../../../shared/money.ts';
import type { SetupOutcome } from './settings.table.ts';

type Executor = Kysely<Database> | Transaction<Database>;

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

export async function writePreferences(
  db: Executor,
  userId: string,
  preferences: Preferences,
  now: number,
): Promise<void> {
  const values = {
    disable_balance_on_add: preferences.disableBalanceOnAdd ? 1 : 0,
    disable_balance_on_edit: preferences.disableBalanceOnEdit ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .execute();
}

/** The business as a statement shows it. */
export async function readBusiness(
  db: Executor,
  userId: string,
): Promise<Required<Omit<Business, 'mainCurrency'>>> {
  const row = await db
    .selectFrom('user_preferences')
    .select(['business_name', 'business_address', 'business_payment_details'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row
    ? {
        name: row.business_name,
        address: row.business_address,
        paymentDetails: row.business_payment_details,
      }
    : { name: '', address: '', paymentDetails: '' };
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

export async function writeBusiness(
  db: Executor,
  userId: string,
  business: Business,
  now: number,
): Promise<void> {
  const values = {
    business_name: business.name,
    business_address: business.address,
    // Left out by a caller that predates it (an older export file, an API script): kept as it is.
    ...(business.paymentDetails === undefined
      ? {}
      : { business_payment_details: business.paymentDetails }),
    ...(business.mainCurrency === undefined ? {} : { main_currency: business.mainCurrency }),
    updated_at: now,
  };
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, disable_balance_on_add: 0, disable_balance_on_edit: 0, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .execute();
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

export async function writeLanguage(
  db: Executor,
  userId: string,
  language: Locale | null,
  now: number,
): Promise<void> {
  const values = { language, updated_at: now };
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, disable_balance_on_add: 0, disable_balance_on_edit: 0, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .execute();
}

export async function readSetupState(
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

/** The setup's outcome, and what it kept: a detail left out stays as it is. */
export async function writeSetup(
  db: Executor,
  userId: string,
  setup: {
    outcome: SetupOutcome;
    businessName?: string | undefined;
    mainCurrency?: Currency | undefined;
    paymentDetails?: string | undefined;
  },
  now: number,
): Promise<void> {
  const values = {
    setup_outcome: setup.outcome,
    ...(setup.businessName === undefined ? {} : { business_name: setup.businessName }),
    ...(setup.mainCurrency === undefined ? {} : { main_currency: setup.mainCurrency }),
    ...(setup.paymentDetails === undefined
      ? {}
      : { business_payment_details: setup.paymentDetails }),
    updated_at: now,
  };
  await db
    .insertInto('user_preferences')
    .values({ user_id: userId, disable_balance_on_add: 0, disable_balance_on_edit: 0, ...values })
    .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
    .execute();
}

export async function readAllowRegistration(db: Executor): Promise<boolean> {
  const row = await db
    .selectFrom('instance_settings')
    .select('value')
    .where('key', '=', 'allow_registration')
    .executeTakeFirst();
  return row ? row.value === 'true' : true;
}

export async function writeAllowRegistration(
  db: Executor,
  allow: boolean,
  now: number,
): Promise<void> {
  const values = { value: String(allow), updated_at: now };
  await db
    .insertInto('instance_settings')
    .values({ key: 'allow_registration', ...values })
    .onConflict((conflict) => conflict.column('key').doUpdateSet(values))
    .execute();
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

export async function replaceRates(
  db: Executor,
  ownerId: string,
  rates: ExchangeRate[],
): Promise<void> {
  await db.deleteFrom('exchange_rates').where('owner_id', '=', ownerId).execute();
  if (rates.length === 0) return;
  await db
    .insertInto('exchange_rates')
    .values(
      rates.map((rate) => ({
        owner_id: ownerId,
        currency: rate.currency,
        usd_per_unit: rate.usdPerUnit,
        rate_date: rate.date,
      })),
    )
    .execute();
}
