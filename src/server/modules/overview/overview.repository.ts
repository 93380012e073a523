import { sql, type Kysely, type Transaction } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { Database } from '../../db/database.ts';

export type Executor = Kysely<Database> | Transaction<Database>;

// SQLite's SUM fails past 2^63, so every sum of amounts here is taken as two sums, of the high
// and of the low 32 bits (neither can overflow below 2^31 rows), joined exactly with BigInt.
const joinHalves = (high: string | number, low: string | number) =>
  (BigInt(high) << 32n) + BigInt(low);

const highOf = (value: ReturnType<typeof sql>) => sql<string>`cast(sum(${value} >> 32) as text)`;
const lowOf = (value: ReturnType<typeof sql>) =>
  sql<string>`cast(sum(${value} & 4294967295) as text)`;

export interface CurrencyPosition {
  currency: Currency;
  /** Sum of the balances above 0. */
  owed: bigint;
  /** Sum of the balances below 0, as a positive amount. */
  credits: bigint;
  clientsOwing: number;
  clientsInCredit: number;
}

/**
 * What the owner's clients owe and are owed, per currency, read from the kept balances along the
 * (owner, currency, balance) index alone.
 */
export async function positionsByCurrency(
  db: Executor,
  ownerId: string,
): Promise<CurrencyPosition[]> {
  const owing = sql`case when balance > 0 then balance else 0 end`;
  const credit = sql`case when balance < 0 then -balance else 0 end`;
  const rows = await db
    .selectFrom('clients')
    .select([
      'currency',
      sql<string>`cast(sum(case when balance > 0 then 1 else 0 end) as text)`.as('owing'),
      sql<string>`cast(sum(case when balance < 0 then 1 else 0 end) as text)`.as('in_credit'),
      highOf(owing).as('owed_high'),
      lowOf(owing).as('owed_low'),
      highOf(credit).as('credit_high'),
      lowOf(credit).as('credit_low'),
    ])
    .where('owner_id', '=', ownerId)
    .groupBy('currency')
    .execute();
  return rows.map((row) => ({
    currency: row.currency,
    owed: joinHalves(row.owed_high, row.owed_low),
    credits: joinHalves(row.credit_high, row.credit_low),
    clientsOwing: Number(row.owing),
    clientsInCredit: Number(row.in_credit),
  }));
}

/** How many clients per currency have an amount unpaid that fell due before `today`. */
export async function overdueClientsByCurrency(
  db: Executor,
  ownerId: string,
  today: string,
): Promise<Map<Currency, number>> {
  const rows = await db
    .selectFrom('clients')
    .select(['currency', (eb) => eb.fn.countAll<string>().as('count')])
    .where('owner_id', '=', ownerId)
    .where('oldest_due_on', '<', today)
    .groupBy('currency')
    .execute();
  return new Map(rows.map((row) => [row.currency, Number(row.count)]));
}

export interface Debtor {
  id: string;
  firstName: string;
  lastName: string;
  balance: number;
  currency: Currency;
}

/** The `limit` largest balances above 0 in one currency, read backwards along its index. */
export async function largestDebtors(
  db: Executor,
  ownerId: string,
  currency: Currency,
  limit: number,
): Promise<Debtor[]> {
  return db
    .selectFrom('clients')
    .select(['id', 'first_name as firstName', 'last_name as lastName', 'balance', 'currency'])
    .where('owner_id', '=', ownerId)
    .where('currency', '=', currency)
    .where('balance', '>', 0)
    .orderBy('balance', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
