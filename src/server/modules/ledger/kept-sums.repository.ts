import { PostgresAdapter, sql, type Transaction } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { Database } from '../../db/database.ts';
import { half } from './ledger.queries.ts';

// The owner's sums kept by the write path in the transaction of each change (migration 0038,
// decision 035): the clients and their balances per currency, and per day what falls due then.
// Every function that writes a client's balance, currency or oldest unpaid day, or an entry's
// unpaid amount or due day, passes what it changed to `keepClientSums` / `keepOpenSums`.

/** Rows per upsert: well inside both databases' limits on bound parameters. */
const upsertBatch = 500;

/** What of a client's row the kept sums count. */
export interface ClientPart {
  currency: Currency;
  balance: number;
  /** `oldest_due_on`: null when nothing is owed. */
  oldestDue: string | null;
}

/** An unpaid amount (`open_amount`) falling due on `day`; negative takes it out. */
export interface OpenPart {
  currency: Currency;
  day: string;
  amount: number;
}

const halves = (value: number) => {
  const high = Math.floor(value / half);
  return { high, low: value - high * half };
};

const ownersHeld = new WeakSet<object>();

/**
 * On PostgreSQL, the owner's lock (the one the event log takes, `lockOwnerLog`) before the first
 * kept row is written: every change of the owner writes the same few rows, and taking them in
 * any order while another change held the lock could deadlock; and what a writer reads to work
 * out its difference is then what it replaces. Once per transaction.
 */
export async function holdOwnerSums(trx: Transaction<Database>, bookId: string): Promise<void> {
  if (ownersHeld.has(trx)) return;
  if (trx.getExecutor().adapter instanceof PostgresAdapter)
    await sql`select pg_advisory_xact_lock(hashtextextended(${bookId}, 0))`.execute(trx);
  ownersHeld.add(trx);
}

interface DayDelta {
  currency: Currency;
  day: string;
  openHigh: number;
  openLow: number;
  clients: number;
  balanceHigh: number;
  balanceLow: number;
}

function dayDelta(days: Map<string, DayDelta>, currency: Currency, day: string): DayDelta {
  const key = `${currency} ${day}`;
  let delta = days.get(key);
  if (!delta) {
    delta = { currency, day, openHigh: 0, openLow: 0, clients: 0, balanceHigh: 0, balanceLow: 0 };
    days.set(key, delta);
  }
  return delta;
}

async function addToDueSums(
  trx: Transaction<Database>,
  bookId: string,
  days: Map<string, DayDelta>,
): Promise<void> {
  const changed = [...days.values()].filter(
    (delta) =>
      delta.openHigh !== 0 ||
      delta.openLow !== 0 ||
      delta.clients !== 0 ||
      delta.balanceHigh !== 0 ||
      delta.balanceLow !== 0,
  );
  if (changed.length === 0) return;
  await holdOwnerSums(trx, bookId);
  for (let start = 0; start < changed.length; start += upsertBatch) {
    await trx
      .insertInto('due_sums')
      .values(
        changed.slice(start, start + upsertBatch).map((delta) => ({
          book_id: bookId,
          currency: delta.currency,
          day: delta.day,
          open_high: delta.openHigh,
          open_low: delta.openLow,
          clients: delta.clients,
          balance_high: delta.balanceHigh,
          balance_low: delta.balanceLow,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['book_id', 'currency', 'day']).doUpdateSet((eb) => ({
          open_high: eb(eb.ref('due_sums.open_high'), '+', eb.ref('excluded.open_high')),
          open_low: eb(eb.ref('due_sums.open_low'), '+', eb.ref('excluded.open_low')),
          clients: eb(eb.ref('due_sums.clients'), '+', eb.ref('excluded.clients')),
          balance_high: eb(eb.ref('due_sums.balance_high'), '+', eb.ref('excluded.balance_high')),
          balance_low: eb(eb.ref('due_sums.balance_low'), '+', eb.ref('excluded.balance_low')),
        })),
      )
      .execute();
  }
}

/**
 * Moves the kept sums from the clients as they were (`before`: none for new clients) to the
 * clients as they are (`after`: none for deleted ones), in the caller's transaction.
 */
export async function keepClientSums(
  trx: Transaction<Database>,
  bookId: string,
  before: readonly ClientPart[],
  after: readonly ClientPart[],
): Promise<void> {
  const perCurrency = new Map<
    Currency,
    {
      clients: number;
      owing: number;
      owedHigh: number;
      owedLow: number;
      inCredit: number;
      creditHigh: number;
      creditLow: number;
    }
  >();
  const days = new Map<string, DayDelta>();
  for (const [parts, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    for (const part of parts) {
      let sums = perCurrency.get(part.currency);
      if (!sums) {
        sums = {
          clients: 0,
          owing: 0,
          owedHigh: 0,
          owedLow: 0,
          inCredit: 0,
          creditHigh: 0,
          creditLow: 0,
        };
        perCurrency.set(part.currency, sums);
      }
      sums.clients += sign;
      if (part.balance > 0) {
        const { high, low } = halves(part.balance);
        sums.owing += sign;
        sums.owedHigh += sign * high;
        sums.owedLow += sign * low;
      } else if (part.balance < 0) {
        const { high, low } = halves(-part.balance);
        sums.inCredit += sign;
        sums.creditHigh += sign * high;
        sums.creditLow += sign * low;
      }
      if (part.oldestDue !== null) {
        const delta = dayDelta(days, part.currency, part.oldestDue);
        const { high, low } = halves(part.balance);
        delta.clients += sign;
        delta.balanceHigh += sign * high;
        delta.balanceLow += sign * low;
      }
    }
  }
  const changed = [...perCurrency].filter(([, sums]) => Object.values(sums).some((v) => v !== 0));
  if (changed.length > 0) await holdOwnerSums(trx, bookId);
  for (const [currency, sums] of changed) {
    await trx
      .insertInto('client_sums')
      .values({
        book_id: bookId,
        currency,
        clients: sums.clients,
        owing: sums.owing,
        owed_high: sums.owedHigh,
        owed_low: sums.owedLow,
        in_credit: sums.inCredit,
        credit_high: sums.creditHigh,
        credit_low: sums.creditLow,
      })
      .onConflict((conflict) =>
        conflict.columns(['book_id', 'currency']).doUpdateSet((eb) => ({
          clients: eb(eb.ref('client_sums.clients'), '+', eb.ref('excluded.clients')),
          owing: eb(eb.ref('client_sums.owing'), '+', eb.ref('excluded.owing')),
          owed_high: eb(eb.ref('client_sums.owed_high'), '+', eb.ref('excluded.owed_high')),
          owed_low: eb(eb.ref('client_sums.owed_low'), '+', eb.ref('excluded.owed_low')),
          in_credit: eb(eb.ref('client_sums.in_credit'), '+', eb.ref('excluded.in_credit')),
          credit_high: eb(eb.ref('client_sums.credit_high'), '+', eb.ref('excluded.credit_high')),
          credit_low: eb(eb.ref('client_sums.credit_low'), '+', eb.ref('excluded.credit_low')),
        })),
      )
      .execute();
  }
  await addToDueSums(trx, bookId, days);
}

/** Adds unpaid amounts to (or, negative, takes them from) their due days, in the caller's transaction. */
export async function keepOpenSums(
  trx: Transaction<Database>,
  bookId: string,
  parts: readonly OpenPart[],
): Promise<void> {
  const days = new Map<string, DayDelta>();
  for (const part of parts) {
    if (part.amount === 0) continue;
    const delta = dayDelta(days, part.currency, part.day);
    const { high, low } = halves(part.amount);
    delta.openHigh += high;
    delta.openLow += low;
  }
  await addToDueSums(trx, bookId, days);
}

/**
 * Adds the kept sums written under `from` (a large import's staging account) to `to`'s, and
 * takes them from `from`: a few rows per currency and day, whatever the rows staged (decision 042).
 */
export async function moveKeptSums(
  trx: Transaction<Database>,
  from: string,
  to: string,
): Promise<void> {
  await holdOwnerSums(trx, to);
  await addRowsOf(trx, 'client_sums', ['currency'], clientSumColumns, from, to);
  await addRowsOf(trx, 'due_sums', ['currency', 'day'], dueSumColumns, from, to);
}

const clientSumColumns = [
  'clients',
  'owing',
  'owed_high',
  'owed_low',
  'in_credit',
  'credit_high',
  'credit_low',
] as const;
const dueSumColumns = ['open_high', 'open_low', 'clients', 'balance_high', 'balance_low'] as const;

/**
 * `from`'s rows of a table of kept sums, added to `to`'s rows of the same key (or made theirs),
 * then deleted. The names are this module's constants, never input.
 */
export async function addRowsOf(
  trx: Transaction<Database>,
  table: 'client_sums' | 'due_sums' | 'ledger_months',
  keys: readonly string[],
  sums: readonly string[],
  from: string,
  to: string,
): Promise<void> {
  const columns = sql.raw([...keys, ...sums].join(', '));
  const added = sql.raw(
    sums.map((name) => `${name} = ${table}.${name} + excluded.${name}`).join(', '),
  );
  await sql`
    insert into ${sql.table(table)} (book_id, ${columns})
    select ${to}, ${columns} from ${sql.table(table)} where book_id = ${from}
    on conflict (book_id, ${sql.raw(keys.join(', '))}) do update set ${added}
  `.execute(trx);
  await trx.deleteFrom(table).where('book_id', '=', from).execute();
}
