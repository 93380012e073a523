import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { keptSums, recomputedSums } from '../../../../tests/kept-sums.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { Entry, RecordedEntry } from '../../../shared/schemas/ledger.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { allocate } from './ageing.ts';

// A payment or credit may name the charges it pays (issue 57, migration 0043, decision 041).

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const day = (ago: number) => addDays(utcDay(), -ago);

const add = async (cookie: string, balance = 0) =>
  (
    await injectOk(
      testApp.app,
      'POST',
      '/api/clients',
      cookie,
      buildClient({ balance, currency: 'USD' }),
    )
  ).json<Client>();

const record = async (cookie: string, id: string, body: object) =>
  (
    await injectOk(testApp.app, 'POST', `/api/clients/${id}/entries`, cookie, body)
  ).json<RecordedEntry>();

const entriesOf = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/entries?limit=500`, cookie)).json<{
    entries: Entry[];
  }>().entries;

const openOf = async (cookie: string, id: string) =>
  Object.fromEntries(
    (await entriesOf(cookie, id)).filter((e) => e.kind === 'charge').map((e) => [e.id, e.open]),
  );

const voidIt = (cookie: string, id: string, entryId: number) =>
  injectOk(testApp.app, 'POST', `/api/clients/${id}/entries/${entryId}/void`, cookie, {
    reason: 'Test',
  });

/** A client with an old charge of 100.00 and a newer one of 50.00. */
async function twoCharges() {
  const owner = await joinAs(testApp.app);
  const client = await add(owner.cookie);
  const old = await record(owner.cookie, client.id, {
    kind: 'charge',
    amount: 10_000,
    date: day(40),
    reference: 'INV-1',
  });
  const newer = await record(owner.cookie, client.id, {
    kind: 'charge',
    amount: 5_000,
    date: day(10),
    reference: 'INV-2',
    note: 'Design work',
  });
  return { owner, client, old: old.entry.entryId, newer: newer.entry.entryId };
}

describe('a payment that names the charges it pays', () => {
  it('pays the charge it names, not the oldest, and the ledger shows both sides', async () => {
    const { owner, client, old, newer } = await twoCharges();
    const paid = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 5_000,
      date: day(1),
      pays: [newer],
    });
    expect(await openOf(owner.cookie, client.id)).toEqual({ [old]: 10_000, [newer]: 0 });
    const entries = await entriesOf(owner.cookie, client.id);
    const payment = entries.find((e) => e.id === paid.entry.entryId);
    expect(payment?.pays).toEqual([
      { id: newer, date: day(10), amount: 5_000, label: 'INV-2 / Design work' },
    ]);
    expect(entries.find((e) => e.id === newer)?.paidBy).toEqual([
      { id: paid.entry.entryId, date: day(1), amount: -5_000 },
    ]);
    // The oldest day still unpaid is the old charge's.
    const after = (
      await injectOk(testApp.app, 'GET', `/api/clients/${client.id}`, owner.cookie)
    ).json<Client>();
    expect(after.oldestDueDate).toBe(day(40));
  });

  it('settles what is left over the named charges oldest first', async () => {
    const { owner, client, old, newer } = await twoCharges();
    await record(owner.cookie, client.id, { kind: 'payment', amount: 8_000, pays: [newer] });
    expect(await openOf(owner.cookie, client.id)).toEqual({ [old]: 7_000, [newer]: 0 });
    // A later plain payment goes to the oldest still open.
    await record(owner.cookie, client.id, { kind: 'credit', amount: 1_000 });
    expect(await openOf(owner.cookie, client.id)).toEqual({ [old]: 6_000, [newer]: 0 });
  });

  it('frees its charges when it is voided, and sends its money oldest first when its charge is', async () => {
    const { owner, client, old, newer } = await twoCharges();
    const paid = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 5_000,
      pays: [newer],
    });
    await voidIt(owner.cookie, client.id, paid.entry.entryId);
    expect(await openOf(owner.cookie, client.id)).toEqual({ [old]: 10_000, [newer]: 5_000 });

    const again = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 5_000,
      pays: [newer],
    });
    expect(await openOf(owner.cookie, client.id)).toEqual({ [old]: 10_000, [newer]: 0 });
    await voidIt(owner.cookie, client.id, newer);
    expect(await openOf(owner.cookie, client.id)).toEqual({ [old]: 5_000, [newer]: 0 });
    const entries = await entriesOf(owner.cookie, client.id);
    expect(entries.find((e) => e.id === again.entry.entryId)?.pays).toEqual([]);
  });

  it('shows the statement’s open items as the ledger keeps them', async () => {
    const { owner, client, old, newer } = await twoCharges();
    await record(owner.cookie, client.id, { kind: 'payment', amount: 5_000, pays: [newer] });
    const statement = (
      await injectOk(
        testApp.app,
        'GET',
        `/api/clients/${client.id}/statement?from=${day(60)}&to=${day(0)}`,
        owner.cookie,
      )
    ).json<Statement>();
    expect(statement.openItems.map((item) => [item.id, item.remaining])).toEqual([[old, 10_000]]);
  });

  it('is refused with the field named when a charge it names is not one it can pay', async () => {
    const { owner, client, old, newer } = await twoCharges();
    const other = await add(owner.cookie, 3_000);
    const otherEntries = await entriesOf(owner.cookie, other.id);
    const paid = await record(owner.cookie, client.id, { kind: 'payment', amount: 10_000 });
    const cases: [object, string][] = [
      [{ kind: 'charge', amount: 100, pays: [newer] }, 'Only a payment or a credit pays charges.'],
      [{ kind: 'payment', amount: 100, pays: [newer, newer] }, 'Name each charge once.'],
      [
        { kind: 'payment', amount: 100, pays: [999_999] },
        'Entry 999999 is not an amount this client owes.',
      ],
      [
        { kind: 'payment', amount: 100, pays: [paid.entry.entryId] },
        `Entry ${paid.entry.entryId} is not an amount this client owes.`,
      ],
      [
        { kind: 'payment', amount: 100, pays: [otherEntries[0]?.id] },
        `Entry ${otherEntries[0]?.id} is not an amount this client owes.`,
      ],
      [{ kind: 'payment', amount: 100, pays: [old] }, `Entry ${old} is already paid.`],
    ];
    const third = await record(owner.cookie, client.id, { kind: 'charge', amount: 700 });
    cases.push([
      { kind: 'payment', amount: 5_000, pays: [newer, third.entry.entryId] },
      `The amount is used up before entry ${third.entry.entryId}.`,
    ]);
    for (const [body, message] of cases) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: `/api/clients/${client.id}/entries`,
        headers: { cookie: owner.cookie },
        payload: body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
        pays: message,
      });
    }
    const wrongType = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/entries`,
      headers: { cookie: owner.cookie },
      payload: { kind: 'payment', amount: 100, pays: ['x'] },
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json<{ error: { fields: object } }>().error.fields).toEqual({
      'pays.0': 'Send the ids of charges.',
    });
    // Nothing half-written.
    expect(await entriesOf(owner.cookie, client.id)).toHaveLength(4);
  });
});

type Step =
  | { kind: 'charge'; amount: number; daysAgo: number }
  | { kind: 'payment'; amount: number; daysAgo: number; names: number[]; credit: boolean }
  | { kind: 'void'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('charge' as const),
    amount: fc.integer({ min: 1, max: 20_000 }),
    daysAgo: fc.integer({ min: 0, max: 90 }),
  }),
  fc.record({
    kind: fc.constant('payment' as const),
    amount: fc.integer({ min: 1, max: 30_000 }),
    daysAgo: fc.integer({ min: 0, max: 90 }),
    names: fc.array(fc.nat(), { maxLength: 3 }),
    credit: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }),
);

describe('the allocation with named charges', () => {
  it('keeps open amounts that add up to the balance and equal a full reallocation, after any sequence', async () => {
    const db = testApp.app.db.kysely;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20_000 }),
        fc.array(step, { minLength: 1, maxLength: 14 }),
        async (opening, steps) => {
          const owner = await joinAs(testApp.app);
          const client = await add(owner.cookie, opening);
          for (const each of steps) {
            const entries = await entriesOf(owner.cookie, client.id);
            if (each.kind === 'charge')
              await record(owner.cookie, client.id, {
                kind: 'charge',
                amount: each.amount,
                date: day(each.daysAgo),
              });
            else if (each.kind === 'payment') {
              const open = entries.filter((e) => e.open > 0);
              const named = [
                ...new Set(each.names.flatMap((n) => (open.length ? [open[n % open.length]] : []))),
              ].flatMap((e) => (e ? [e] : []));
              // As many as the amount reaches, in the order named.
              let left = each.amount;
              const pays: number[] = [];
              for (const e of named) {
                if (left <= 0) break;
                pays.push(e.id);
                left -= e.open;
              }
              await record(owner.cookie, client.id, {
                kind: each.credit ? 'credit' : 'payment',
                amount: each.amount,
                date: day(each.daysAgo),
                ...(pays.length > 0 && { pays }),
              });
            } else {
              const live = entries.filter((e) => e.voidOf === null && e.voidedBy === null);
              const chosen = live[each.pick % Math.max(live.length, 1)];
              if (chosen) await voidIt(owner.cookie, client.id, chosen.id);
            }
          }
          const after = (
            await injectOk(testApp.app, 'GET', `/api/clients/${client.id}`, owner.cookie)
          ).json<Client>();
          const rows = await db
            .selectFrom('entries')
            .select([
              'id',
              'amount',
              'occurred_on as date',
              'due_on as dueDate',
              'void_of as voidOf',
              'open_amount as openAmount',
            ])
            .where('client_id', '=', client.id)
            .execute();
          const targets = (
            await db
              .selectFrom('payment_targets')
              .select(['payment_id as paymentId', 'charge_id as chargeId', 'amount'])
              .where('client_id', '=', client.id)
              .execute()
          ).map((row) => ({ ...row, amount: Number(row.amount) }));
          const stored = rows.map((row) => Number(row.openAmount));
          expect(stored.reduce((a, b) => a + b, 0)).toBe(Math.max(after.balance, 0));
          const fresh = allocate(rows, targets);
          expect(Object.fromEntries(rows.map((row) => [row.id, Number(row.openAmount)]))).toEqual(
            Object.fromEntries(rows.map((row) => [row.id, fresh.open.get(row.id) ?? 0])),
          );
          expect(after.oldestDueDate).toBe(fresh.oldestDue);
          expect(await keptSums(db, owner.userId)).toEqual(await recomputedSums(db, owner.userId));

          // The same book restored elsewhere keeps the same open amounts.
          const file = (await injectOk(testApp.app, 'GET', '/api/export.json', owner.cookie)).body;
          const target = await joinAs(testApp.app);
          const restored = await testApp.app.inject({
            method: 'POST',
            url: '/api/restore',
            headers: { cookie: target.cookie, 'content-type': 'application/json' },
            payload: file,
          });
          expect(restored.statusCode, restored.body).toBe(200);
          const reopened = await db
            .selectFrom('entries')
            .select(['amount', 'open_amount as openAmount'])
            .where('book_id', '=', target.userId)
            .orderBy('created_at')
            .orderBy('id')
            .execute();
          expect(reopened.map((row) => Number(row.openAmount)).sort()).toEqual([...stored].sort());
          expect(await keptSums(db, target.userId)).toEqual(
            await recomputedSums(db, target.userId),
          );
        },
      ),
      { numRuns: 20 },
    );
  });
});
