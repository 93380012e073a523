import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientSnapshot } from '../../src/shared/schemas/clients.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs } from '../auth.ts';
import { buildClient } from '../factories.ts';

let testApp: TestApp;
let cookie: string;

beforeAll(async () => {
  testApp = await buildTestApp();
  ({ cookie } = await joinAs(testApp.app));
});
afterAll(async () => {
  await testApp.close();
});

interface Outcome {
  kind: 'balance' | 'edit';
  /** What this write sets, unique to it, so its trace in the history can be found. */
  marker: number;
  status: number;
  answered: Client | null;
}

/** The client's events in the order they were committed, straight from the log. */
async function eventsOf(id: string) {
  const rows = await testApp.app.db.kysely
    .selectFrom('events')
    .select(['id', 'version', 'action', 'before', 'after'])
    .where('client_id', '=', id)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    ...row,
    before: row.before === null ? null : (JSON.parse(row.before) as ClientSnapshot),
    after: row.after === null ? null : (JSON.parse(row.after) as ClientSnapshot),
  }));
}

describe('100 parallel changes of one client', () => {
  it('lose no update: each is applied or refused with 409, and the history matches the client', async () => {
    const body = buildClient({ balance: 0, currency: 'USD' });
    const added = await testApp.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie },
      payload: body,
    });
    expect(added.statusCode).toBe(201);
    const { id } = added.json<Client>();

    const writers = Array.from({ length: 100 }, async (_, index): Promise<Outcome> => {
      // Staggered in small groups, so later writers read versions made by earlier ones, as real
      // users would; each group still races for one version.
      await sleep(Math.floor(index / 4) * 3);
      const read = await testApp.app.inject({
        method: 'GET',
        url: `/api/clients/${id}`,
        headers: { cookie },
      });
      expect(read.statusCode).toBe(200);
      const seen = read.json<Client>();
      const marker = 1000 + index;
      const kind = index % 2 === 0 ? 'balance' : 'edit';
      const response = await testApp.app.inject(
        kind === 'balance'
          ? {
              method: 'PATCH',
              url: `/api/clients/${id}/balance`,
              headers: { cookie },
              payload: { balance: marker, version: seen.version },
            }
          : {
              method: 'PUT',
              url: `/api/clients/${id}`,
              headers: { cookie },
              payload: {
                ...body,
                balance: marker,
                phone: `+1 555 ${marker} 00`,
                version: seen.version,
              },
            },
      );
      return {
        kind,
        marker,
        status: response.statusCode,
        answered: response.statusCode === 200 ? response.json<Client>() : null,
      };
    });
    const outcomes = await Promise.all(writers);

    const statuses = new Set(outcomes.map((outcome) => outcome.status));
    expect([...statuses].filter((status) => status !== 200 && status !== 409)).toEqual([]);
    const applied = outcomes.filter((outcome) => outcome.status === 200);
    expect(applied.length).toBeGreaterThanOrEqual(1);

    const current = (
      await testApp.app.inject({ method: 'GET', url: `/api/clients/${id}`, headers: { cookie } })
    ).json<Client>();
    // Each applied write made exactly one new version; a refused one made none.
    expect(current.version).toBe(1 + applied.length);
    const answeredVersions = applied
      .map((outcome) => outcome.answered?.version)
      .sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(answeredVersions).toEqual(Array.from({ length: applied.length }, (_, i) => i + 2));

    const events = await eventsOf(id);
    expect(events.map((event) => event.version)).toEqual(
      Array.from({ length: current.version }, (_, i) => i + 1),
    );
    expect(events[0]?.action).toBe('created');
    for (let i = 1; i < events.length; i += 1) {
      // Each change starts from exactly what the previous one left.
      expect(events[i]?.before).toEqual(events[i - 1]?.after);
    }
    // Ada is a person: her snapshot has a person's six fields (the business ones, all empty,
    // are left out of it).
    const { firstName, lastName, email, phone, balance, currency } = current;
    expect(current.company).toBe('');
    expect(events.at(-1)?.after).toEqual({ firstName, lastName, email, phone, balance, currency });

    // Every acknowledged write is in the history at the version it was answered with, once;
    // no refused write left a trace.
    const byBalance = new Map(events.map((event) => [event.after?.balance, event]));
    for (const outcome of applied) {
      const event = byBalance.get(outcome.marker);
      expect(event?.version).toBe(outcome.answered?.version);
      expect(event?.action).toBe(outcome.kind === 'balance' ? 'balance_changed' : 'edited');
    }
    for (const outcome of outcomes.filter((candidate) => candidate.status === 409)) {
      expect(byBalance.has(outcome.marker)).toBe(false);
    }
  });

  it('apply all 100 when each refused writer reads again and retries', async () => {
    const added = await testApp.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie },
      payload: buildClient({ balance: 0 }),
    });
    const { id } = added.json<Client>();
    let conflicts = 0;
    const writers = Array.from({ length: 100 }, async (_, index) => {
      for (let attempt = 0; ; attempt += 1) {
        const seen = (
          await testApp.app.inject({
            method: 'GET',
            url: `/api/clients/${id}`,
            headers: { cookie },
          })
        ).json<Client>();
        const response = await testApp.app.inject({
          method: 'PATCH',
          url: `/api/clients/${id}/balance`,
          headers: { cookie },
          // Each writer adds its own amount: the final balance tells whether any was lost.
          payload: { balance: seen.balance + index + 1, version: seen.version },
        });
        if (response.statusCode === 200) return attempt;
        expect(response.statusCode).toBe(409);
        conflicts += 1;
        await sleep(Math.random() * 5 * Math.min(attempt + 1, 10));
      }
    });
    await Promise.all(writers);
    const current = (
      await testApp.app.inject({ method: 'GET', url: `/api/clients/${id}`, headers: { cookie } })
    ).json<Client>();
    expect(conflicts).toBeGreaterThan(0);
    expect(current.version).toBe(101);
    expect(current.balance).toBe((100 * 101) / 2);
    const events = await eventsOf(id);
    expect(events).toHaveLength(101);
    expect(events.at(-1)?.after?.balance).toBe(current.balance);
    // Each change is an adjustment in the ledger: the balance is still the sum of the entries.
    const entries = await testApp.app.db.kysely
      .selectFrom('entries')
      .select((eb) => eb.fn.sum<string>('amount').as('total'))
      .where('client_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(entries.total)).toBe(current.balance);
    // Thousands of requests, with retries and pauses: a busy machine needs more than the default.
  }, 90_000);
});
