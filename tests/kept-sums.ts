import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/server/db/database.ts';

// The owner's kept sums (migration 0038, ledger/kept-sums.repository.ts) beside the same sums
// worked out afresh from the clients and entries, both as plain sorted rows with exact amounts
// and without rows that hold nothing: what the consistency tests compare.

export interface SumsRows {
  clients: {
    currency: string;
    clients: string;
    owing: string;
    owed: string;
    inCredit: string;
    credit: string;
  }[];
  days: { currency: string; day: string; open: string; clients: string; balance: string }[];
}

const join = (high: unknown, low: unknown) =>
  (BigInt(String(high)) * 2n ** 32n + BigInt(String(low))).toString();

const text = (expression: string) => sql.raw(`cast(${expression} as text)`);

function tidy(clients: SumsRows['clients'], days: SumsRows['days']): SumsRows {
  return {
    clients: clients
      .filter((row) => row.clients !== '0')
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    days: days
      .filter((row) => row.open !== '0' || row.clients !== '0' || row.balance !== '0')
      .sort((a, b) => `${a.currency} ${a.day}`.localeCompare(`${b.currency} ${b.day}`)),
  };
}

/** What the write path keeps for the owner. */
export async function keptSums(db: Kysely<Database>, bookId: string): Promise<SumsRows> {
  const clients = await sql<Record<string, string>>`
    select currency, ${text('clients')} as clients, ${text('owing')} as owing,
      ${text('owed_high')} as owed_high, ${text('owed_low')} as owed_low,
      ${text('in_credit')} as in_credit, ${text('credit_high')} as credit_high,
      ${text('credit_low')} as credit_low
    from client_sums where book_id = ${bookId}`.execute(db);
  const days = await sql<Record<string, string>>`
    select currency, day, ${text('open_high')} as open_high, ${text('open_low')} as open_low,
      ${text('clients')} as clients, ${text('balance_high')} as balance_high,
      ${text('balance_low')} as balance_low
    from due_sums where book_id = ${bookId}`.execute(db);
  return tidy(
    clients.rows.map((row) => ({
      currency: String(row.currency),
      clients: String(row.clients),
      owing: String(row.owing),
      owed: join(row.owed_high, row.owed_low),
      inCredit: String(row.in_credit),
      credit: join(row.credit_high, row.credit_low),
    })),
    days.rows.map((row) => ({
      currency: String(row.currency),
      day: String(row.day),
      open: join(row.open_high, row.open_low),
      clients: String(row.clients),
      balance: join(row.balance_high, row.balance_low),
    })),
  );
}

/** The same sums worked out from the owner's clients and entries, in JavaScript. */
export async function recomputedSums(db: Kysely<Database>, bookId: string): Promise<SumsRows> {
  // Amounts as text: a test may write balances past 2^53 straight into the table.
  const clients = await db
    .selectFrom('clients')
    .select(['currency', sql<string>`cast(balance as text)`.as('balance'), 'oldest_due_on'])
    .where('book_id', '=', bookId)
    .execute();
  const entries = await db
    .selectFrom('entries')
    .select([
      'currency',
      'occurred_on',
      'due_on',
      sql<string>`cast(open_amount as text)`.as('open_amount'),
    ])
    .where('book_id', '=', bookId)
    .where('open_amount', '!=', 0)
    .execute();
  const perCurrency = new Map<
    string,
    { clients: number; owing: number; owed: bigint; inCredit: number; credit: bigint }
  >();
  const perDay = new Map<
    string,
    { currency: string; day: string; open: bigint; clients: number; balance: bigint }
  >();
  const day = (currency: string, date: string) => {
    const key = `${currency} ${date}`;
    let row = perDay.get(key);
    if (!row) {
      row = { currency, day: date, open: 0n, clients: 0, balance: 0n };
      perDay.set(key, row);
    }
    return row;
  };
  for (const client of clients) {
    const balance = BigInt(client.balance);
    const sums = perCurrency.get(client.currency) ?? {
      clients: 0,
      owing: 0,
      owed: 0n,
      inCredit: 0,
      credit: 0n,
    };
    perCurrency.set(client.currency, sums);
    sums.clients += 1;
    if (balance > 0n) {
      sums.owing += 1;
      sums.owed += balance;
    } else if (balance < 0n) {
      sums.inCredit += 1;
      sums.credit -= balance;
    }
    if (client.oldest_due_on !== null) {
      const row = day(client.currency, client.oldest_due_on);
      row.clients += 1;
      row.balance += balance;
    }
  }
  for (const entry of entries)
    day(entry.currency, entry.due_on ?? entry.occurred_on).open += BigInt(entry.open_amount);
  return tidy(
    [...perCurrency].map(([currency, sums]) => ({
      currency,
      clients: String(sums.clients),
      owing: String(sums.owing),
      owed: sums.owed.toString(),
      inCredit: String(sums.inCredit),
      credit: sums.credit.toString(),
    })),
    [...perDay.values()].map((row) => ({
      currency: row.currency,
      day: row.day,
      open: row.open.toString(),
      clients: String(row.clients),
      balance: row.balance.toString(),
    })),
  );
}

/**
 * Makes the owner's kept sums again from the tables, for a test that writes clients or entries
 * straight into them (outside the write path, which keeps the sums itself).
 */
export async function keepSumsOfRowsWrittenByHand(
  db: Kysely<Database>,
  bookId: string,
): Promise<void> {
  const fresh = await recomputedSums(db, bookId);
  const halves = (value: string) => {
    const amount = BigInt(value);
    const high = amount >> 32n;
    return { high: Number(high), low: Number(amount - (high << 32n)) };
  };
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('client_sums').where('book_id', '=', bookId).execute();
    await trx.deleteFrom('due_sums').where('book_id', '=', bookId).execute();
    for (const row of fresh.clients) {
      const owed = halves(row.owed);
      const credit = halves(row.credit);
      await trx
        .insertInto('client_sums')
        .values({
          book_id: bookId,
          currency: row.currency as never,
          clients: Number(row.clients),
          owing: Number(row.owing),
          owed_high: owed.high,
          owed_low: owed.low,
          in_credit: Number(row.inCredit),
          credit_high: credit.high,
          credit_low: credit.low,
        })
        .execute();
    }
    for (const row of fresh.days) {
      const open = halves(row.open);
      const balance = halves(row.balance);
      await trx
        .insertInto('due_sums')
        .values({
          book_id: bookId,
          currency: row.currency as never,
          day: row.day,
          open_high: open.high,
          open_low: open.low,
          clients: Number(row.clients),
          balance_high: balance.high,
          balance_low: balance.low,
        })
        .execute();
    }
  });
}
