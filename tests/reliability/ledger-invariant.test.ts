import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, utcDay } from '../../src/shared/dates.ts';
import { currencies } from '../../src/shared/money.ts';
import type { Client } from '../../src/shared/schemas/clients.ts';
import type { Entry } from '../../src/shared/schemas/ledger.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs } from '../auth.ts';
import { buildClient } from '../factories.ts';

// Whatever the owner does, in whatever order, a client's balance is the sum of its entries (in
// its currency; entries left in an earlier currency add up to nothing), and the balances are
// what a simple model of the same commands expects.

let testApp: TestApp;

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
            const response = await send('POST', '/api/clients', buildClient(step));
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
          from clients c where c.owner_id = ${owner.userId}
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
      }),
      { numRuns: Number(process.env.LEDGER_RUNS ?? 40) },
    );
  });
});
