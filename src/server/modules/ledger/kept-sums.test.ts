import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { keptSums, recomputedSums } from '../../../../tests/kept-sums.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import type { Entry } from '../../../shared/schemas/ledger.ts';

// The sums the write path keeps (migration 0038) are what the clients and entries add up to,
// after any sequence of the owner's writes through the routes, and what the list and the
// overview show.

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

type Write =
  | { kind: 'add'; balance: number; currency: 'USD' | 'KRW'; daysAgo: number; dueIn: number | null }
  | {
      kind: 'entry';
      pick: number;
      entry: 'charge' | 'payment' | 'credit';
      amount: number;
      daysAgo: number;
      dueIn: number | null;
    }
  | { kind: 'void'; pick: number; entryPick: number }
  | { kind: 'setBalance'; pick: number; balance: number }
  | {
      kind: 'edit';
      pick: number;
      balance: number;
      currency: 'USD' | 'KRW';
      daysAgo: number | null;
      dueIn: number | null;
    }
  | { kind: 'delete'; pick: number }
  | { kind: 'import'; balances: number[]; daysAgo: number };

const amount = fc.integer({ min: 1, max: 50_000 });
const balance = fc.oneof(fc.constant(0), fc.integer({ min: -50_000, max: 50_000 }));
const currency = fc.constantFrom('USD' as const, 'KRW' as const);
const daysAgo = fc.integer({ min: 0, max: 150 });
const dueIn = fc.option(fc.integer({ min: 0, max: 60 }), { nil: null });
const pick = fc.nat();

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), balance, currency, daysAgo, dueIn }),
  fc.record({
    kind: fc.constant('entry' as const),
    pick,
    entry: fc.constantFrom('charge' as const, 'payment' as const, 'credit' as const),
    amount,
    daysAgo,
    dueIn,
  }),
  fc.record({
    kind: fc.constant('entry' as const),
    pick,
    entry: fc.constant('charge' as const),
    amount,
    daysAgo,
    dueIn,
  }),
  fc.record({ kind: fc.constant('void' as const), pick, entryPick: fc.nat() }),
  fc.record({ kind: fc.constant('setBalance' as const), pick, balance }),
  fc.record({
    kind: fc.constant('edit' as const),
    pick,
    balance,
    currency,
    daysAgo: fc.option(daysAgo, { nil: null }),
    dueIn,
  }),
  fc.record({ kind: fc.constant('delete' as const), pick }),
  fc.record({
    kind: fc.constant('import' as const),
    balances: fc.array(balance, { minLength: 1, maxLength: 6 }),
    daysAgo,
  }),
);

async function call(
  cookie: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  const response = await testApp.app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload ? { payload } : {}),
  });
  // A refusal (a conflict, a currency that may not change) is a write that did not happen; a
  // fault is a failure of the test.
  expect(response.statusCode, response.body).toBeLessThan(500);
  return response;
}

async function clientsOf(cookie: string): Promise<Client[]> {
  const list = (
    await call(cookie, 'GET', '/api/clients?limit=200&sort=created')
  ).json<ClientList>();
  return list.clients;
}

const today = () => utcDay();

async function apply(cookie: string, step: Write): Promise<void> {
  const clients = await clientsOf(cookie);
  const chosen = 'pick' in step ? clients[step.pick % Math.max(clients.length, 1)] : undefined;
  const date = (ago: number) => addDays(today(), -ago);
  switch (step.kind) {
    case 'add': {
      const openingDate = date(step.daysAgo);
      await call(cookie, 'POST', '/api/clients', {
        ...buildClient({ balance: step.balance, currency: step.currency }),
        openingDate,
        openingDueDate: step.dueIn === null ? null : addDays(openingDate, step.dueIn),
      });
      return;
    }
    case 'import': {
      const openingDate = date(step.daysAgo);
      await call(cookie, 'POST', '/api/clients/import', {
        rows: step.balances.map((value) => ({ ...buildClient({ balance: value }), openingDate })),
        dryRun: false,
        skipDuplicates: false,
      });
      return;
    }
  }
  if (!chosen) return;
  const at = `/api/clients/${chosen.id}`;
  switch (step.kind) {
    case 'entry': {
      const day = date(step.daysAgo);
      await call(cookie, 'POST', `${at}/entries`, {
        kind: step.entry,
        amount: step.amount,
        date: day,
        ...(step.entry === 'charge' && step.dueIn !== null
          ? { dueDate: addDays(day, step.dueIn) }
          : {}),
      });
      return;
    }
    case 'void': {
      const entries = (await call(cookie, 'GET', `${at}/entries?limit=200`)).json<{
        entries: Entry[];
      }>().entries;
      const entry = entries[step.entryPick % Math.max(entries.length, 1)];
      if (entry) await call(cookie, 'POST', `${at}/entries/${entry.id}/void`, { reason: 'Test' });
      return;
    }
    case 'setBalance':
      await call(cookie, 'PATCH', `${at}/balance`, {
        balance: step.balance,
        previousBalance: chosen.balance,
      });
      return;
    case 'edit': {
      const { firstName, lastName, email, phone } = chosen;
      await call(cookie, 'PUT', at, {
        firstName,
        lastName,
        email,
        phone,
        balance: step.balance,
        currency: step.currency,
        version: chosen.version,
        ...(step.daysAgo === null
          ? {}
          : {
              openingDate: date(step.daysAgo),
              openingDueDate: step.dueIn === null ? null : addDays(date(step.daysAgo), step.dueIn),
            }),
      });
      return;
    }
    case 'delete':
      await call(cookie, 'DELETE', at);
      return;
  }
}

describe('the sums the write path keeps', () => {
  it('equal the sums worked out afresh after any sequence of writes, and after a restore', async () => {
    const db = testApp.app.db.kysely;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 25 }), async (writes) => {
        const owner = await joinAs(testApp.app);
        for (const step of writes) await apply(owner.cookie, step);
        expect(await keptSums(db, owner.userId)).toEqual(await recomputedSums(db, owner.userId));

        // The same book brought back into another account keeps the same sums.
        const file = (await call(owner.cookie, 'GET', '/api/export.json')).body;
        const target = await joinAs(testApp.app);
        const restored = await testApp.app.inject({
          method: 'POST',
          url: '/api/restore',
          headers: { cookie: target.cookie, 'content-type': 'application/json' },
          payload: file,
        });
        expect(restored.statusCode, restored.body).toBe(200);
        expect(await keptSums(db, target.userId)).toEqual(await recomputedSums(db, target.userId));
        const fresh = await recomputedSums(db, target.userId);
        expect(fresh.clients).toEqual((await recomputedSums(db, owner.userId)).clients);
      }),
      { numRuns: 12 },
    );
  });

  it('go with the book', async () => {
    const db = testApp.app.db.kysely;
    const owner = await joinAs(testApp.app);
    await call(owner.cookie, 'POST', '/api/clients', buildClient({ balance: 700 }));
    expect((await keptSums(db, owner.userId)).clients).toHaveLength(1);
    // A new account's book has the account's id.
    await db.deleteFrom('books').where('id', '=', owner.userId).execute();
    expect(await keptSums(db, owner.userId)).toEqual({ clients: [], days: [] });
  });
});
