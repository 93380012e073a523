import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { CreatedAccessToken } from '../../../shared/schemas/access-tokens.ts';
import type {
  AccountClientLinks,
  CreatedClientLink,
} from '../../../shared/schemas/client-links.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import { sessionCookieName } from '../auth/session.ts';

// Issue 52, item 7: a password change ends every session and token, but the client links a stolen
// session made kept working. They still do (a client's link outlives a password change), but the
// owner is shown who made each link and revokes the strangers' in one step.

const laptop =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const thiefsBrowser =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const dayMs = 86_400_000;

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

interface Who {
  cookie?: string;
  token?: string;
}
let addressCounter = 0;
function call(method: InjectOptions['method'], url: string, who: Who, payload?: object) {
  return testApp.app.inject({
    method,
    url,
    // The link pages count misses per address: each request an address of its own.
    remoteAddress: `10.52.7.${++addressCounter % 250}`,
    headers: {
      ...(who.cookie ? { cookie: who.cookie } : {}),
      ...(who.token ? { authorization: `Bearer ${who.token}` } : {}),
    },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function login(email: string, userAgent: string): Promise<string> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: strongPassword },
    headers: { 'user-agent': userAgent },
  });
  expect(response.statusCode, response.body).toBe(200);
  const token = response.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
  return `${sessionCookieName}=${token}`;
}

async function addClient(who: Who, firstName: string): Promise<Client> {
  const response = await call('POST', '/api/clients', who, buildClient({ firstName }));
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Client>();
}

async function makeLink(who: Who, clientId: string, body: object = {}): Promise<string> {
  const response = await call('POST', `/api/clients/${clientId}/link`, who, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedClientLink>().path;
}

const opens = async (path: string) => (await call('GET', path, {})).statusCode;

const listLinks = async (who: Who) => {
  const response = await call('GET', '/api/account/client-links', who);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AccountClientLinks>().links;
};

/** An owner on their laptop, and a thief with a copy of another of their sessions. */
async function robbedOwner() {
  const owner = await joinAs(testApp.app);
  const own = { cookie: await login(owner.email, laptop) };
  const thief = { cookie: await login(owner.email, thiefsBrowser) };
  const made = await call('POST', '/api/tokens', thief, { name: 'sync', access: 'read-write' });
  expect(made.statusCode, made.body).toBe(201);
  const thiefsToken = { token: made.json<CreatedAccessToken>().secret };
  const clients = {
    mine: await addClient(own, 'Mine'),
    taken: await addClient(own, 'Taken'),
    also: await addClient(own, 'Also'),
    scripted: await addClient(own, 'Scripted'),
  };
  const links = {
    mine: await makeLink(own, clients.mine.id),
    taken: await makeLink(thief, clients.taken.id),
    also: await makeLink(thief, clients.also.id, { expiresInDays: 30 }),
    scripted: await makeLink(thiefsToken, clients.scripted.id),
  };
  return { owner, own, thief, thiefsToken, clients, links };
}

const changePassword = (who: Who) =>
  call('POST', '/api/account/password', who, {
    currentPassword: strongPassword,
    newPassword: 'a brand new passphrase here',
  });

describe('client links after a password change', () => {
  it('keep working, and the owner is shown which session or token made each', async () => {
    const { own, thief, thiefsToken, clients, links } = await robbedOwner();
    expect((await changePassword(own)).statusCode).toBe(204);
    expect((await call('GET', '/api/clients', thief)).statusCode).toBe(401);
    expect((await call('GET', '/api/clients', thiefsToken)).statusCode).toBe(401);
    // A client's link outlives a password change on purpose: the thief's work too, for now.
    for (const path of Object.values(links)) expect(await opens(path)).toBe(200);

    const listed = await listLinks(own);
    const byClient = new Map(listed.map((link) => [link.clientId, link]));
    expect(listed).toHaveLength(4);
    expect(byClient.get(clients.mine.id)).toMatchObject({
      clientName: clients.mine.firstName + ' ' + clients.mine.lastName,
      expiresAt: null,
      lastOpenedAt: expect.any(String) as unknown,
      madeBy: { kind: 'session', device: 'Chrome on Linux', current: true, ended: false },
    });
    expect(byClient.get(clients.taken.id)?.madeBy).toMatchObject({
      kind: 'session',
      device: 'Firefox on Windows',
      current: false,
      ended: true,
      startedAt: expect.any(String) as unknown,
    });
    expect(byClient.get(clients.also.id)).toMatchObject({
      expiresAt: expect.any(String) as unknown,
      madeBy: { kind: 'session', device: 'Firefox on Windows', ended: true },
    });
    expect(byClient.get(clients.scripted.id)?.madeBy).toEqual({
      kind: 'token',
      device: 'sync',
      startedAt: expect.any(String) as unknown,
      current: false,
      ended: true,
    });
    // Newest first, and no secret nor hash in the answer.
    const times = listed.map((link) => Date.parse(link.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const body = JSON.stringify(listed);
    for (const path of Object.values(links)) expect(body).not.toContain(path.slice(3, 12));
  });

  it('are revoked in one step when chosen, each in its client history, and the rest stay', async () => {
    const { own, clients, links } = await robbedOwner();
    expect((await changePassword(own)).statusCode).toBe(204);
    const chosen = (await listLinks(own)).filter((link) => !link.madeBy.current);
    expect(chosen).toHaveLength(3);

    const revoked = await call('POST', '/api/account/client-links/revoke', own, {
      ids: chosen.map((link) => link.id),
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ revoked: 3 });
    expect(await opens(links.taken)).toBe(410);
    expect(await opens(links.also)).toBe(410);
    expect(await opens(links.scripted)).toBe(410);
    expect(await opens(links.mine)).toBe(200);
    expect((await listLinks(own)).map((link) => link.clientId)).toEqual([clients.mine.id]);
    const history = await call('GET', `/api/clients/${clients.taken.id}/history`, own);
    expect(history.body).toContain('link_revoked');

    // Again, with one already revoked: passed over, nothing else changes.
    const again = await call('POST', '/api/account/client-links/revoke', own, {
      ids: [chosen[0]?.id],
    });
    expect(again.json()).toEqual({ revoked: 0 });
    expect(await opens(links.mine)).toBe(200);
  });

  it("answers 404 for another owner's link and revokes none of the chosen", async () => {
    const { own, links } = await robbedOwner();
    const stranger = await joinAs(testApp.app);
    const theirs = await addClient(stranger, 'Theirs');
    const theirLink = await makeLink(stranger, theirs.id);
    const [theirId] = (await listLinks(stranger)).map((link) => link.id);
    const mine = (await listLinks(own)).map((link) => link.id);

    const refused = await call('POST', '/api/account/client-links/revoke', own, {
      ids: [...mine, theirId],
    });
    expect(refused.statusCode).toBe(404);
    expect(await opens(theirLink)).toBe(200);
    for (const path of Object.values(links)) expect(await opens(path)).toBe(200);
    expect(await listLinks(own)).toHaveLength(4);
  });

  it('lists only live links made in the last 30 days', async () => {
    const { own, clients, links } = await robbedOwner();
    const db = testApp.app.db.kysely;
    const listed = await listLinks(own);
    const idOf = (clientId: string) => listed.find((link) => link.clientId === clientId)?.id ?? '';
    await db
      .updateTable('client_links')
      .set({ created_at: Date.now() - 31 * dayMs })
      .where('id', '=', idOf(clients.taken.id))
      .execute();
    await db
      .updateTable('client_links')
      .set({ expires_at: Date.now() - 1000 })
      .where('id', '=', idOf(clients.also.id))
      .execute();
    expect((await call('DELETE', `/api/clients/${clients.scripted.id}/link`, own)).statusCode).toBe(
      204,
    );
    // A link made before makers were kept says nothing of who made it.
    await db
      .updateTable('client_links')
      .set({ made_by: null, made_by_id: null, made_by_label: null, made_by_started_at: null })
      .where('id', '=', idOf(clients.mine.id))
      .execute();
    expect(await listLinks(own)).toMatchObject([
      {
        clientId: clients.mine.id,
        madeBy: { kind: 'unknown', device: null, current: false, ended: false },
      },
    ]);
    expect(await opens(links.taken)).toBe(200);
  });

  it('refuses an empty or malformed choice, naming it, and changes nothing', async () => {
    const { own, links } = await robbedOwner();
    const empty = await call('POST', '/api/account/client-links/revoke', own, { ids: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: { code: 'validation', fields: { ids: anyText } } });
    const malformed = await call('POST', '/api/account/client-links/revoke', own, {
      ids: ['../../etc'],
    });
    expect(malformed.statusCode).toBe(400);
    for (const path of Object.values(links)) expect(await opens(path)).toBe(200);
  });

  it('are listed and revoked from a signed-in session only, never with a token', async () => {
    const { own, links } = await robbedOwner();
    const made = await call('POST', '/api/tokens', own, { name: 'mine', access: 'read-write' });
    const token = { token: made.json<CreatedAccessToken>().secret };
    expect((await call('GET', '/api/account/client-links', token)).statusCode).toBe(403);
    const ids = (await listLinks(own)).map((link) => link.id);
    const revoke = await call('POST', '/api/account/client-links/revoke', token, { ids });
    expect(revoke.statusCode).toBe(403);
    expect((await call('GET', '/api/account/client-links', {})).statusCode).toBe(401);
    for (const path of Object.values(links)) expect(await opens(path)).toBe(200);
  });
});

const anyText: unknown = expect.any(String);
