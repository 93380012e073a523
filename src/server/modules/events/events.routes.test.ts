import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { injectOk } from '../../../../tests/http.ts';
import { testDialect } from '../../../../tests/db.ts';
import { buildClient, buildEventRow } from '../../../../tests/factories.ts';
import { openStream, type StreamMessage } from '../../../../tests/sse.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { ChangeEvent } from '../../../shared/schemas/events.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { hashToken } from '../auth/session.ts';
import { latestEventId } from './events.queries.ts';
import { maxReplay } from './events.routes.ts';

let testApp: TestApp;
let baseUrl: string;
beforeAll(async () => {
  testApp = await buildTestApp({ config: { liveHeartbeatMs: 200 } });
  baseUrl = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await testApp.close();
});

const call = injectOk;

const change = (message: StreamMessage) => JSON.parse(message.data) as ChangeEvent;
const isChange = (action: ChangeEvent['action'], clientId?: string) => (message: StreamMessage) =>
  message.event === 'change' &&
  change(message).action === action &&
  (clientId === undefined || change(message).clientId === clientId);

describe('the live stream', () => {
  it('needs a session', async () => {
    const response = await fetch(`${baseUrl}/api/events`);
    expect(response.status).toBe(401);
  });

  it("carries every change of the owner's clients and settings, in order, and nothing of another owner", async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    const stream = await openStream(baseUrl, owner.cookie);
    const otherStream = await openStream(baseUrl, other.cookie);
    expect(stream.status).toBe(200);
    await stream.waitFor((message) => message.event === 'ready');
    await otherStream.waitFor((message) => message.event === 'ready');

    const client = (
      await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
    ).json<Client>();
    await call(testApp.app, 'PUT', `/api/clients/${client.id}`, owner.cookie, {
      ...buildClient(),
      version: 1,
    });
    await call(testApp.app, 'PATCH', `/api/clients/${client.id}/balance`, owner.cookie, {
      balance: 5,
      version: 2,
    });
    await call(testApp.app, 'DELETE', `/api/clients/${client.id}`, owner.cookie);
    await call(testApp.app, 'PUT', '/api/settings', owner.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
    });
    await stream.waitFor(isChange('settings_changed'));
    const changes = stream.messages.filter((message) => message.event === 'change').map(change);
    expect(changes.map((event) => event.action)).toEqual([
      'created',
      'edited',
      'balance_changed',
      'deleted',
      'settings_changed',
    ]);
    expect(changes.slice(0, 4).every((event) => event.clientId === client.id)).toBe(true);
    const ids = changes.map((event) => event.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);

    // The other owner's stream saw none of it: its own change is the first thing it gets.
    const mine = (
      await call(testApp.app, 'POST', '/api/clients', other.cookie, buildClient())
    ).json<Client>();
    await otherStream.waitFor(isChange('created', mine.id));
    expect(
      otherStream.messages.filter((message) => message.event === 'change').map(change),
    ).toEqual([expect.objectContaining({ action: 'created', clientId: mine.id })]);
    stream.close();
    otherStream.close();
  });

  it('resumes after Last-Event-ID with every event it missed', async () => {
    const owner = await joinAs(testApp.app);
    const first = await openStream(baseUrl, owner.cookie);
    const ready = await first.waitFor((message) => message.event === 'ready');
    const a = (
      await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
    ).json<Client>();
    const seen = await first.waitFor(isChange('created', a.id));
    first.close();

    // While away: three changes.
    const b = (
      await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
    ).json<Client>();
    await call(testApp.app, 'PATCH', `/api/clients/${a.id}/balance`, owner.cookie, {
      balance: 1,
      version: 1,
    });
    await call(testApp.app, 'DELETE', `/api/clients/${b.id}`, owner.cookie);

    const resumed = await openStream(baseUrl, owner.cookie, Number(seen.id));
    await resumed.waitFor(isChange('deleted', b.id));
    const missed = resumed.messages.filter((message) => message.event === 'change').map(change);
    expect(missed.map((event) => [event.action, event.clientId])).toEqual([
      ['created', b.id],
      ['balance_changed', a.id],
      ['deleted', b.id],
    ]);
    expect(resumed.messages.some((message) => message.event === 'ready')).toBe(false);
    expect(Number(ready.id)).toBeLessThan(Number(seen.id));
    resumed.close();
  });

  it('gives a stream that summarizes the changes it missed as one message, naming the deleted clients and a settings change', async () => {
    const owner = await joinAs(testApp.app);
    const first = await openStream(baseUrl, owner.cookie, undefined, {}, '?summarize=true');
    const ready = await first.waitFor((message) => message.event === 'ready');
    first.close();

    // While away: four changes, among them a deleted client and the settings.
    const a = (
      await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
    ).json<Client>();
    const b = (
      await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
    ).json<Client>();
    await call(testApp.app, 'DELETE', `/api/clients/${b.id}`, owner.cookie);
    await call(testApp.app, 'PUT', '/api/settings', owner.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
    });
    const lastId = await latestEventId(testApp.app.db.kysely, owner.userId);

    const resumed = await openStream(
      baseUrl,
      owner.cookie,
      Number(ready.id),
      {},
      '?summarize=true',
    );
    const summary = await resumed.waitFor((message) => message.event === 'changes');
    expect(JSON.parse(summary.data)).toEqual({
      id: lastId,
      count: 4,
      deleted: [b.id],
      settingsChanged: true,
    });
    expect(summary.id).toBe(String(lastId));
    expect(resumed.messages.filter((message) => message.event === 'change')).toEqual([]);

    // A change that comes alone is an ordinary change message.
    await call(testApp.app, 'PATCH', `/api/clients/${a.id}/balance`, owner.cookie, {
      balance: 3,
      version: 1,
    });
    const alone = await resumed.waitFor(isChange('balance_changed', a.id));
    expect(Number(alone.id)).toBeGreaterThan(Number(summary.id));
    resumed.close();
  });

  it('refuses a summarize that is not true or false, naming it', async () => {
    const owner = await joinAs(testApp.app);
    const response = await fetch(`${baseUrl}/api/events?summarize=yes`, {
      headers: { cookie: owner.cookie },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; fields?: object } };
    expect(body.error.code).toBe('validation');
    expect(body.error.fields).toHaveProperty('summarize');
  });

  it('tells a client that has been away too long to reload instead', async () => {
    const owner = await joinAs(testApp.app);
    const first = await openStream(baseUrl, owner.cookie);
    const ready = await first.waitFor((message) => message.event === 'ready');
    first.close();
    const user = (
      await testApp.app.inject({ url: '/api/auth/session', headers: { cookie: owner.cookie } })
    ).json<{ user: { id: string } }>().user;
    await testApp.app.db.kysely
      .insertInto('events')
      .values(
        Array.from({ length: maxReplay + 1 }, (_, i) =>
          buildEventRow(user.id, `gone${i}`, 'deleted', { version: 2 }),
        ),
      )
      .execute();
    const resumed = await openStream(baseUrl, owner.cookie, Number(ready.id));
    const reload = await resumed.waitFor((message) => message.event === 'reload');
    expect(Number(reload.id)).toBeGreaterThan(Number(ready.id) + maxReplay);
    expect(resumed.messages.filter((message) => message.event === 'change')).toEqual([]);
    resumed.close();
  });

  it('ends at once when its session logs out', async () => {
    const owner = await joinAs(testApp.app);
    const stream = await openStream(baseUrl, owner.cookie);
    await stream.waitFor((message) => message.event === 'ready');
    await call(testApp.app, 'POST', '/api/auth/logout', owner.cookie, {});
    await stream.waitFor((message) => message.event === 'end', 1000);
    await stream.ended;
  });

  it('ends at the next heartbeat when its session expires on the server', async () => {
    const owner = await joinAs(testApp.app);
    const stream = await openStream(baseUrl, owner.cookie);
    await stream.waitFor((message) => message.event === 'ready');
    // As the idle limit would: the session row goes, no logout request is made.
    await testApp.app.db.kysely
      .deleteFrom('sessions')
      .where('token_hash', '=', hashToken(owner.cookie.split('=')[1] ?? ''))
      .execute();
    await stream.waitFor((message) => message.event === 'end', 3000);
    await stream.ended;
  });
});

describe.skipIf(testDialect !== 'postgres')(
  'across instances (PostgreSQL only: SQLite has one instance)',
  () => {
    it('a change through one instance reaches a stream held by another, also after its listener was cut', async () => {
      const second = await buildApp({
        config: { ...loadConfig({}), database: testApp.database.config, liveHeartbeatMs: 60_000 },
      });
      const secondUrl = await second.listen({ port: 0, host: '127.0.0.1' });
      try {
        const owner = await joinAs(testApp.app);
        const stream = await openStream(secondUrl, owner.cookie);
        await stream.waitFor((message) => message.event === 'ready');
        const a = (
          await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
        ).json<Client>();
        await stream.waitFor(isChange('created', a.id));

        // Cut the second instance's LISTEN connection from the server side; commit while it is gone.
        const pid = await second.feed.listenerPid();
        expect(pid).not.toBeNull();
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await admin.end();
        const b = (
          await call(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient())
        ).json<Client>();
        // The heartbeat is a minute away: only the reconnected listener's catch-up can bring it.
        await stream.waitFor(isChange('created', b.id), 10_000);
        expect(await second.feed.listenerPid()).not.toBe(pid);
        stream.close();
      } finally {
        await second.close();
      }
    });
  },
);
