import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedClients, seededRandom } from '../scripts/bench/seed.ts';
import { utcDay } from '../src/shared/dates.ts';
import type { Client } from '../src/shared/schemas/clients.ts';
import { buildTestApp, type TestApp } from './app.ts';
import { joinAs } from './auth.ts';
import { testDialect } from './db.ts';
import { keptSums, recomputedSums } from './kept-sums.ts';

// The bench writes its clients straight into the SQLite file. Its figures mean something only if
// those rows are the ones the app itself writes when a client is added through it: the same
// opening entry, oldest due day and history, so that a seeded client's ledger adds up.

interface Written {
  client: { balance: number; currency: string; oldest_due_on: string | null; created_at: number };
  entries: Record<string, unknown>[];
  events: {
    action: string;
    version: number;
    before: string | null;
    after: string | null;
    detail: string | null;
  }[];
}

/** What the database holds for one client, with what differs by client (ids, times) left out. */
function written(file: string, clientId: string): Written {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const client = db
      .prepare('select balance, currency, oldest_due_on, created_at from clients where id = ?')
      .get(clientId) as unknown as Written['client'];
    const entries = db
      .prepare(
        `select id, kind, amount, currency, occurred_on, due_on, note, void_of, open_amount,
           created_at from entries where client_id = ? order by id`,
      )
      .all(clientId);
    const events = db
      .prepare(
        'select action, version, before, after, detail from events where client_id = ? order by id',
      )
      .all(clientId) as unknown as Written['events'];
    return { client, entries, events };
  } finally {
    db.close();
  }
}

/** The same facts, said the same way for a seeded client and one added through the app. */
function normalized({ client, entries, events }: Written) {
  const day = utcDay(client.created_at);
  return {
    balance: client.balance,
    currency: client.currency,
    oldestDue:
      client.oldest_due_on === null
        ? null
        : client.oldest_due_on === day
          ? 'creation day'
          : 'other',
    entries: entries.map(({ id: _id, created_at, occurred_on, ...rest }) => ({
      ...rest,
      onCreationDay: occurred_on === day && created_at === client.created_at,
    })),
    events: events.map(({ after, detail, ...rest }) => ({
      ...rest,
      // The snapshot's fields in their order (the e-mails differ by design).
      afterKeys: after === null ? null : Object.keys(JSON.parse(after) as object),
      // The history's record of the entry, key for key and in order, with the entry's own id.
      detail:
        detail
          ?.replace(`"entryId":${String(entries[0]?.id)},`, '"entryId":ID,')
          .replace(`"date":"${day}"`, '"date":CREATION_DAY') ?? null,
    })),
  };
}

describe.runIf(testDialect === 'sqlite')('the bench seed (SQLite only)', () => {
  let testApp: TestApp;
  let file: string;
  let cookie: string;
  let bookId: string;
  let seeded: Client[];

  beforeAll(async () => {
    testApp = await buildTestApp();
    if (testApp.database.config.dialect !== 'sqlite') throw new Error('SQLite only');
    file = testApp.database.config.file;
    const owner = await joinAs(testApp.app);
    cookie = owner.cookie;
    bookId = owner.userId;
    const ids = seedClients({ file, bookId, count: 24, random: seededRandom(11) });
    seeded = await Promise.all(
      ids.map(async (id) => {
        const response = await testApp.app.inject({
          url: `/api/clients/${id}`,
          headers: { cookie },
        });
        expect(response.statusCode).toBe(200);
        return response.json<Client>();
      }),
    );
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('keeps the owner’s sums as the write path does', async () => {
    const db = testApp.app.db.kysely;
    expect(await keptSums(db, bookId)).toEqual(await recomputedSums(db, bookId));
    expect((await keptSums(db, bookId)).clients.length).toBeGreaterThan(0);
  });

  it('seeds balances owed, in credit and settled', () => {
    const balances = seeded.map((client) => client.balance);
    expect(balances.some((balance) => balance > 0)).toBe(true);
    expect(balances.some((balance) => balance < 0)).toBe(true);
    expect(balances.some((balance) => balance === 0)).toBe(true);
  });

  it('writes each client as adding it through the app does', async () => {
    for (const [index, client] of seeded.entries()) {
      const added = await testApp.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie },
        payload: {
          firstName: client.firstName,
          lastName: client.lastName,
          email: `added.${index}.${client.email}`,
          phone: client.phone,
          balance: client.balance,
          currency: client.currency,
        },
      });
      expect(added.statusCode).toBe(201);
      const viaApp = normalized(written(file, added.json<Client>().id));
      expect(normalized(written(file, client.id))).toEqual(viaApp);
    }
  });

  it('leaves a ledger that adds up: after a payment, the statement ends at the new balance', async () => {
    const owing = seeded.find((client) => client.balance > 1000);
    if (!owing) throw new Error('the seed has no client owing more than 1,000');
    const paid = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${owing.id}/entries`,
      headers: { cookie },
      payload: { kind: 'payment', amount: 1000, date: utcDay(Date.now()), note: '' },
    });
    expect(paid.statusCode).toBe(201);
    const statement = await testApp.app.inject({
      url: `/api/clients/${owing.id}/statement`,
      headers: { cookie },
    });
    expect(statement.statusCode).toBe(200);
    const { lines, closingBalance } = statement.json<{
      lines: { balance: string }[];
      closingBalance: string;
    }>();
    expect(lines.at(-1)?.balance).toBe(String(owing.balance - 1000));
    expect(closingBalance).toBe(String(owing.balance - 1000));
  });
});
