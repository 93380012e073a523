import type { Generated } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { EntryKind, PaymentMethod } from '../../../shared/schemas/ledger.ts';

/**
 * The client's ledger: never deleted, only reversed by a void; of an entry only an opening
 * balance's date, due date and reference may be corrected.
 */
export interface EntriesTable {
  id: Generated<number>;
  book_id: string;
  client_id: string;
  kind: EntryKind;
  /** Minor units of `currency`, signed by the effect on the balance. */
  amount: number;
  currency: Currency;
  /** YYYY-MM-DD */
  occurred_on: string;
  due_on: string | null;
  note: string;
  /** The owner's own number for it (an invoice's); '' when none. */
  reference: Generated<string>;
  void_of: number | null;
  created_by: string | null;
  created_at: number;
  /** The part of the amount not yet settled by payments and credits (oldest first). */
  open_amount: Generated<number>;
  /** The bank statement line a payment was brought in from (migration 0032); null otherwise. */
  bank_line_id: Generated<string | null>;
  /** How a payment came (migration 0041); null on other entries and on older payments. */
  payment_method: Generated<PaymentMethod | null>;
  /** An entry of a closed period this one corrects, made in the open one (migration 0046). */
  corrects: Generated<number | null>;
}

/** Each month's net change of an owner's balances in one currency (migration 0026). */
interface LedgerMonthsTable {
  book_id: string;
  currency: Currency;
  /** YYYY-MM */
  month: string;
  /** The sums of the amounts' high 32 bits and low 32 bits: the month's net is high × 2^32 + low. */
  high: number | string | bigint;
  low: number | string | bigint;
}

type Count = number | string | bigint;

/**
 * Per owner and currency, the clients and their balances' sums, kept by the write path
 * (migration 0038, kept-sums.repository.ts). Each sum is kept as the sums of its high and low
 * 32 bits, as the month figures are.
 */
interface ClientSumsTable {
  book_id: string;
  currency: Currency;
  clients: Count;
  /** Clients with a balance above 0, and the sum of those balances. */
  owing: Count;
  owed_high: Count;
  owed_low: Count;
  /** Clients with a balance below 0, and the sum of those balances as a positive amount. */
  in_credit: Count;
  credit_high: Count;
  credit_low: Count;
}

/** Per owner, currency and day, what falls due that day (migration 0038). */
interface DueSumsTable {
  book_id: string;
  currency: Currency;
  /** YYYY-MM-DD */
  day: string;
  /** The unpaid part of the entries due that day (`open_amount`). */
  open_high: Count;
  open_low: Count;
  /** The clients whose oldest unpaid day it is (`oldest_due_on`), and their balances. */
  clients: Count;
  balance_high: Count;
  balance_low: Count;
}

/**
 * The charges a payment or credit names as the ones it pays (migration 0043): up to `amount` of
 * the payment goes to the charge before anything settles oldest first (ageing.ts `allocate`).
 */
interface PaymentTargetsTable {
  book_id: string;
  client_id: string;
  payment_id: number;
  charge_id: number;
  amount: number;
}

export interface LedgerTables {
  entries: EntriesTable;
  payment_targets: PaymentTargetsTable;
  ledger_months: LedgerMonthsTable;
  client_sums: ClientSumsTable;
  due_sums: DueSumsTable;
}
