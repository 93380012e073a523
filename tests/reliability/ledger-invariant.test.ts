import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcDay } from '../../src/shared/dates.ts';
import { allocate } from '../../src/server/modules/ledger/ageing.ts';
import { currencies } from '../../src/shared/money.ts';
import type { Client } from '../../src/shared/schemas/clients.ts';
import type { Entry } from '../../src/shared/schemas/ledger.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs } from '../auth.ts';
import { buildClient } from '../factories.ts';
import { ledgerLines } from '../../src/server/modules/ledger/ledger.queries.ts';

// Whatever the owner does, in whatever order, a client's balance is the sum of its entries (in
// its currency; entries left in an earlier currency add up to nothing), and the balances are
// what a simple model of the same commands expects. What is unpaid, entry by entry, and each
// client's oldest unpaid day are what the ageing's rule gives for the whole ledger (`allocate`),
// though a change works them out from the entries it can move.

let testApp: TestApp;

/** Each client's stored unpaid amounts and oldest unpaid day, against the rule on its whole ledger. */
async function expectAgeingOfWholeLedgers(bookId: string) {
  const db = testApp.app.db.kysely;
  const clients = await db
    .selectFrom('clients')
    .select(['id', 'currency', 'oldest_due_on'])
    .where('book_id', '=', bookId)
    .execute();
  for (const client of clients) {
    const lines = await ledgerLines(db, bookId, client.id);
    const { open, oldestDue } = allocate(lines.filter((line) => line.currency === client.currency));
    const stored = Object.fromEntries(lines.map((line) => [line.id, line.openAmount]));
    const ruled = Object.fromEntries(lines.map((line) => [line.id, open.get(line.id) ?? 0]));
    expect(stored).toEqual(ruled);
    expect(client.oldest_due_on).toBe(oldestDue);
  }
  return clients.length;
}

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const amount = fc.integer({ min: 1, max: 5_000_000 });
const balance = fc.integer({ min: -5_000_000, max: 5_000_000 });

const command = fc.oneof(
  fc.record({
    type: fc.constant('add' as const),
    balance,
    currency: fc.constantFrom(...currencies),
  }),
  fc.record({
    type: fc.constant('record' as const),
    client: fc.nat(),
    kind: fc.constantFrom('charge' as const, 'payment' as const, 'credit' as const),
    amount,
    daysAgo: fc.integer({ min: 0, max: 400 }),
  }),
  fc.record({ type: fc.constant('void' as const), client: fc.nat(), entry: fc.nat() }),
  fc.record({
    type: fc.constant('pencil' as const),
    client: fc.nat(),
    balance,
    stale: fc.boolean(),
  }),
  fc.record({
    type: fc.constant('edit' as const),
    client: fc.nat(),
    balance,
    currency: fc.constantFrom(...currencies),
  }),
  fc.record({
    type: fc.constant('import' as const),
    balances: fc.array(balance, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ type: fc.constant('delete' as const), client: fc.nat() }),
);

describe('the ledger invariant', () => {
  it('balance = sum of entries for every client after any sequence of commands', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        const { app } = testApp;
        const owner = await joinAs(app);
        const send = (
          method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
          url: string,
          body?: object,
        ) =>
          app.inject({
            method,
            url,
            headers: { cookie: owner.cookie },
            ...(body ? { payload: body } : {}),
          });
        /** What the owner expects each client's balance to be. */
        const expected = new Map<string, number>();
        const ids = () => [...expected.keys()];
        const pick = (index: number) => ids()[index % Math.max(ids().length, 1)];

        for (const step of commands) {
          if (step.type === 'add') {
            const response = await send(
              'POST',
              '/api/clients',
              buildClient({ balance: step.balance, currency: step.currency }),
            );
            expect(response.statusCode).toBe(201);
            expected.set(response.json<Client>().id, step.balance);
          } else if (step.type === 'import') {
            const rows = step.balances.map((value) => buildClient({ balance: value }));
            const response = await send('POST', '/api/clients/import', {
              rows,
              dryRun: false,
              skipDuplicates: false,
            });
            expect(response.statusCode).toBe(200);
          } else {
            const id = pick(step.client);
            if (id === undefined) continue;
            const current = expected.get(id) ?? 0;
            if (step.type === 'record') {
              const response = await send('POST', `/api/clients/${id}/entries`, {
                kind: step.kind,
                amount: step.amount,
                date: addDays(utcDay(), -step.daysAgo),
              });
              expect(response.statusCode).toBe(201);
              expected.set(id, current + (step.kind === 'charge' ? step.amount : -step.amount));
            } else if (step.type === 'void') {
              const entries = (await send('GET', `/api/clients/${id}/entries`)).json<{
                entries: Entry[];
              }>().entries;
              const target = entries[step.entry % Math.max(entries.length, 1)];
              if (!target) continue;
              const client = (await send('GET', `/api/clients/${id}`)).json<Client>();
              const response = await send('POST', `/api/clients/${id}/entries/${target.id}/void`, {
                reason: 'property test',
              });
              const voidable =
                target.kind !== 'void' &&
                target.voidedBy === null &&
                target.currency === client.currency;
              expect(response.statusCode).toBe(voidable ? 201 : 409);
              if (voidable) expected.set(id, current - target.amount);
            } else if (step.type === 'pencil') {
              const response = await send('PATCH', `/api/clients/${id}/balance`, {
                balance: step.balance,
                previousBalance: step.stale ? current + 1 : current,
              });
              expect(response.statusCode).toBe(step.stale ? 409 : 200);
              if (!step.stale) expected.set(id, step.balance);
            } else if (step.type === 'edit') {
              const seen = (await send('GET', `/api/clients/${id}`)).json<Client>();
              const response = await send('PUT', `/api/clients/${id}`, {
                ...buildClient({ balance: step.balance, currency: step.currency }),
                version: seen.version,
              });
              // A currency is kept once the ledger has more than opening balances: refused whole.
              expect([200, 400]).toContain(response.statusCode);
              if (response.statusCode === 200) expected.set(id, step.balance);
            } else {
              expect((await send('DELETE', `/api/clients/${id}`)).statusCode).toBe(204);
              expected.delete(id);
            }
          }
        }

        const { rows } = await sql<{
          id: string;
          balance: number;
          in_currency: string | null;
          elsewhere: string | null;
          open: string | null;
          open_elsewhere: string | null;
        }>`
          select c.id, c.balance,
            (select cast(sum(e.open_amount) as text) from entries e
              where e.client_id = c.id and e.currency = c.currency) as open,
            (select cast(sum(e.open_amount) as text) from entries e
              where e.client_id = c.id and e.currency <> c.currency) as open_elsewhere,
            (select cast(sum(e.amount) as text) from entries e
              where e.client_id = c.id and e.currency = c.currency) as in_currency,
            (select cast(sum(e.amount) as text) from entries e
              where e.client_id = c.id and e.currency <> c.currency) as elsewhere
          from clients c where c.book_id = ${owner.userId}
        `.execute(app.db.kysely);
        for (const row of rows) {
          expect(BigInt(row.in_currency ?? 0)).toBe(BigInt(row.balance));
          expect(BigInt(row.elsewhere ?? 0)).toBe(0n);
          // Ageing: what is unpaid adds up to what is owed (nothing, for a credit).
          const owed = BigInt(row.balance) > 0n ? BigInt(row.balance) : 0n;
          expect(BigInt(row.open ?? 0)).toBe(owed);
          expect(BigInt(row.open_elsewhere ?? 0)).toBe(0n);
          if (expected.has(row.id)) expect(Number(row.balance)).toBe(expected.get(row.id));
        }
        expect(rows.length).toBeGreaterThanOrEqual(expected.size);
        await expectAgeingOfWholeLedgers(owner.userId);
      }),
      { numRuns: Number(process.env.LEDGER_RUNS ?? 40) },
    );
  });

  /** A new owner's POSTs, and direct access to one entry's stored unpaid amount. */
  async function ledgerOwner() {
    const { app } = testApp;
    const owner = await joinAs(app);
    const send = (url: string, body: object) =>
      app.inject({ method: 'POST', url, headers: { cookie: owner.cookie }, payload: body });
    const db = app.db.kysely;
    const storedOpen = async (entryId: number) =>
      (
        await db
          .selectFrom('entries')
          .select('open_amount')
          .where('id', '=', entryId)
          .executeTakeFirstOrThrow()
      ).open_amount;
    // Behind the API's back: a value no command would write shows which entries a change did
    // not reach (working out the whole ledger again would put it right).
    const plant = (entryId: number, openAmount: number) =>
      db
        .updateTable('entries')
        .set({ open_amount: openAmount })
        .where('id', '=', entryId)
        .execute();
    return { owner, send, storedOpen, plant };
  }

  type Recorded = { entry: { entryId: number }; client: Client };

  it('settles the oldest unpaid charges of a long ledger with a payment, reading no further back than it must', async () => {
    const { owner, send, storedOpen, plant } = await ledgerOwner();
    const id = (await send('/api/clients', buildClient({ balance: 0 }))).json<Client>().id;
    const today = utcDay();
    // 300 charges of 10, seven a day, so that the walk's pages (16, 256, then 2,048 entries)
    // end in the middle of a day.
    const day = (index: number) => addDays(today, -(60 - Math.floor(index / 7)));
    const charges: number[] = [];
    for (let index = 0; index < 300; index++) {
      const response = await send(`/api/clients/${id}/entries`, {
        kind: 'charge',
        amount: 10,
        date: day(index),
      });
      expect(response.statusCode).toBe(201);
      charges.push(response.json<Recorded>().entry.entryId);
    }
    expect(
      (await send(`/api/clients/${id}/entries`, { kind: 'payment', amount: 200 })).statusCode,
    ).toBe(201);
    await expectAgeingOfWholeLedgers(owner.userId);
    const oldest = charges[0] as number;
    await plant(oldest, 3);

    // 105 more paid: the next ten charges are settled and the one after them half. The walk
    // reads the 280 that were unpaid, newest first, and stops where nothing was left unpaid.
    const paid = await send(`/api/clients/${id}/entries`, { kind: 'payment', amount: 105 });
    expect(paid.json<Recorded>().client.oldestDueDate).toBe(day(30));
    const unpaid = await Promise.all(charges.map(storedOpen));
    expect(unpaid).toEqual([3, ...Array<number>(29).fill(0), 5, ...Array<number>(269).fill(10)]);

    // A charge dated today is placed with nothing older read again.
    const charged = await send(`/api/clients/${id}/entries`, { kind: 'charge', amount: 10 });
    expect(charged.json<Recorded>().client.oldestDueDate).toBe(day(30));
    expect(await storedOpen(charged.json<Recorded>().entry.entryId)).toBe(10);
    expect(await storedOpen(oldest)).toBe(3);

    await plant(oldest, 0);
    await expectAgeingOfWholeLedgers(owner.userId);
  });

  it('keeps the oldest unpaid day when a later charge is voided, and moves it on when the charge due first is', async () => {
    const { owner, send, storedOpen, plant } = await ledgerOwner();
    const id = (await send('/api/clients', buildClient({ balance: 0 }))).json<Client>().id;
    const today = utcDay();
    const charge = async (daysAgo: number, dueDate?: string) =>
      (
        await send(`/api/clients/${id}/entries`, {
          kind: 'charge',
          amount: 10,
          date: addDays(today, -daysAgo),
          ...(dueDate ? { dueDate } : {}),
        })
      ).json<Recorded>();
    const first = await charge(4, addDays(today, 5));
    const dueFirst = await charge(3);
    await charge(2, addDays(today, 5));
    const last = await charge(1, addDays(today, 5));
    expect(last.client.oldestDueDate).toBe(addDays(today, -3));
    await plant(first.entry.entryId, 7);

    // The newest charge voided: only it is read, and the stored oldest day still holds.
    const voidedLast = await send(`/api/clients/${id}/entries/${last.entry.entryId}/void`, {
      reason: 'sent twice',
    });
    expect(voidedLast.json<{ client: Client }>().client.oldestDueDate).toBe(addDays(today, -3));
    expect(await storedOpen(first.entry.entryId)).toBe(7);

    // The charge due first voided: what is left decides, worked out from the whole ledger.
    const voided = await send(`/api/clients/${id}/entries/${dueFirst.entry.entryId}/void`, {
      reason: 'sent twice',
    });
    expect(voided.json<{ client: Client }>().client.oldestDueDate).toBe(addDays(today, 5));
    expect(await storedOpen(first.entry.entryId)).toBe(10);
    await expectAgeingOfWholeLedgers(owner.userId);
  });

  // A client billed often and paid now and then: long runs of unpaid charges (with due dates of
  // their own) that a payment, a void or a new balance partly settles or opens again, so that a
  // change's walk of the ledger reads it in more than one page and stops at every kind of point.
  it('keeps one long ledger unpaid by the rule, entry by entry, whatever is recorded or voided', async () => {
    const step = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          type: fc.constant('record' as const),
          kind: fc.constant('charge' as const),
          amount: fc.integer({ min: 1, max: 1_000 }),
          // From tomorrow (a browser's day may be ahead of the server's) to two months ago.
          daysAgo: fc.integer({ min: -1, max: 60 }),
          dueInDays: fc.option(fc.integer({ min: 0, max: 60 })),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          type: fc.constant('record' as const),
          kind: fc.constantFrom('payment' as const, 'credit' as const),
          amount: fc.integer({ min: 1, max: 1_500 }),
          daysAgo: fc.integer({ min: -1, max: 60 }),
          dueInDays: fc.constant(null),
        }),
      },
      { weight: 1, arbitrary: fc.record({ type: fc.constant('void' as const), entry: fc.nat() }) },
      {
        weight: 1,
        arbitrary: fc.record({
          type: fc.constantFrom('pencil' as const, 'edit' as const),
          balance: fc.integer({ min: -2_000, max: 30_000 }),
        }),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -2_000, max: 30_000 }),
        fc.array(step, { minLength: 20, maxLength: 90 }),
        async (opening, steps) => {
          const { app } = testApp;
          const owner = await joinAs(app);
          const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, body?: object) =>
            app.inject({
              method,
              url,
              headers: { cookie: owner.cookie },
              ...(body ? { payload: body } : {}),
            });
          const added = await send('POST', '/api/clients', buildClient({ balance: opening }));
          expect(added.statusCode).toBe(201);
          const id = added.json<Client>().id;
          for (const change of steps) {
            if (change.type === 'record') {
              const date = addDays(utcDay(), -change.daysAgo);
              const response = await send('POST', `/api/clients/${id}/entries`, {
                kind: change.kind,
                amount: change.amount,
                date,
                ...(change.dueInDays === null ? {} : { dueDate: addDays(date, change.dueInDays) }),
              });
              expect(response.statusCode).toBe(201);
            } else if (change.type === 'void') {
              const { entries } = (await send('GET', `/api/clients/${id}/entries`)).json<{
                entries: Entry[];
              }>();
              const voidable = entries.filter((e) => e.kind !== 'void' && e.voidedBy === null);
              const target = voidable[change.entry % Math.max(voidable.length, 1)];
              if (!target) continue;
              const response = await send('POST', `/api/clients/${id}/entries/${target.id}/void`, {
                reason: 'property test',
              });
              expect(response.statusCode).toBe(201);
            } else {
              const seen = (await send('GET', `/api/clients/${id}`)).json<Client>();
              const response =
                change.type === 'pencil'
                  ? await send('PATCH', `/api/clients/${id}/balance`, {
                      balance: change.balance,
                      version: seen.version,
                    })
                  : await send('PUT', `/api/clients/${id}`, {
                      ...buildClient({ balance: change.balance, currency: seen.currency }),
                      version: seen.version,
                    });
              expect(response.statusCode).toBe(200);
            }
            // After every change: a wrong amount that a later change happened to put right
            // would otherwise go unseen.
            expect(await expectAgeingOfWholeLedgers(owner.userId)).toBe(1);
          }
        },
      ),
      { numRuns: Number(process.env.LEDGER_RUNS ?? 40) / 2 },
    );
    // Hundreds of requests in one test: on a busy 2-core machine running two test files at once
    // it took more than the suite's 20 s. A slow run is not a failed one (speed is the bench's).
  }, 90_000);
});
