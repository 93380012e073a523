import type { Generated } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { Setup } from '../../../shared/schemas/settings.ts';

export type SetupOutcome = Setup['outcome'];

/** The business's settings: one row per book (migration 0045; user_preferences before). */
interface BookSettingsTable {
  book_id: string;
  disable_balance_on_add: number;
  disable_balance_on_edit: number;
  business_name: Generated<string>;
  business_address: Generated<string>;
  business_payment_details: Generated<string>;
  /** Migration 0042; '' when not given. */
  business_tax_id: Generated<string>;
  language: Generated<string | null>;
  main_currency: Generated<Currency>;
  /** Null until the owner finished the first-run setup. */
  setup_outcome: Generated<SetupOutcome | null>;
  updated_at: number;
}

/** A missing key has its default. */
interface InstanceSettingsTable {
  key: 'allow_registration';
  value: string;
  updated_at: number;
}

interface ExchangeRatesTable {
  book_id: string;
  currency: Currency;
  /** How many US dollars one unit is worth, as exact decimal text ("0.00074"). */
  usd_per_unit: string;
  rate_date: string;
}

export interface SettingsTables {
  book_settings: BookSettingsTable;
  instance_settings: InstanceSettingsTable;
  exchange_rates: ExchangeRatesTable;
}
