import type { Business, ExchangeRate, Preferences } from '../../../shared/schemas/settings.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { Currency } from '../../../shared/money.ts';
import type { SetupOutcome } from './settings.table.ts';
import type { Executor } from '../../db/database.ts';

export async function writePreferences(
  db: Executor,
  bookId: string,
  preferences: Preferences,
  now: number,
): Promise<void> {
  const values = {
    disable_balance_on_add: preferences.disableBalanceOnAdd ? 1 : 0,
    disable_balance_on_edit: preferences.disableBalanceOnEdit ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('book_settings')
    .values({ book_id: bookId, ...values })
    .onConflict((conflict) => conflict.column('book_id').doUpdateSet(values))
    .execute();
}

export async function writeBusiness(
  db: Executor,
  bookId: string,
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
    ...(business.taxId === undefined ? {} : { business_tax_id: business.taxId }),
    ...(business.mainCurrency === undefined ? {} : { main_currency: business.mainCurrency }),
    updated_at: now,
  };
  await db
    .insertInto('book_settings')
    .values({ book_id: bookId, disable_balance_on_add: 0, disable_balance_on_edit: 0, ...values })
    .onConflict((conflict) => conflict.column('book_id').doUpdateSet(values))
    .execute();
}

export async function writeLanguage(
  db: Executor,
  bookId: string,
  language: Locale | null,
  now: number,
): Promise<void> {
  const values = { language, updated_at: now };
  await db
    .insertInto('book_settings')
    .values({ book_id: bookId, disable_balance_on_add: 0, disable_balance_on_edit: 0, ...values })
    .onConflict((conflict) => conflict.column('book_id').doUpdateSet(values))
    .execute();
}

export async function writePersonLanguage(
  db: Executor,
  userId: string,
  language: Locale | null,
): Promise<void> {
  await db.updateTable('users').set({ language }).where('id', '=', userId).execute();
}

/** The setup's outcome, and what it kept: a detail left out stays as it is. */
export async function writeSetup(
  db: Executor,
  bookId: string,
  setup: {
    outcome: SetupOutcome;
    businessName?: string | undefined;
    mainCurrency?: Currency | undefined;
    paymentDetails?: string | undefined;
    businessAddress?: string | undefined;
    taxId?: string | undefined;
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
    ...(setup.businessAddress === undefined ? {} : { business_address: setup.businessAddress }),
    ...(setup.taxId === undefined ? {} : { business_tax_id: setup.taxId }),
    updated_at: now,
  };
  await db
    .insertInto('book_settings')
    .values({ book_id: bookId, disable_balance_on_add: 0, disable_balance_on_edit: 0, ...values })
    .onConflict((conflict) => conflict.column('book_id').doUpdateSet(values))
    .execute();
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

export async function replaceRates(
  db: Executor,
  bookId: string,
  rates: ExchangeRate[],
): Promise<void> {
  await db.deleteFrom('exchange_rates').where('book_id', '=', bookId).execute();
  if (rates.length === 0) return;
  await db
    .insertInto('exchange_rates')
    .values(
      rates.map((rate) => ({
        book_id: bookId,
        currency: rate.currency,
        usd_per_unit: rate.usdPerUnit,
        rate_date: rate.date,
      })),
    )
    .execute();
}

export async function writeLockDate(
  db: Executor,
  bookId: string,
  lockDate: string | null,
): Promise<void> {
  await db.updateTable('books').set({ lock_date: lockDate }).where('id', '=', bookId).execute();
}
