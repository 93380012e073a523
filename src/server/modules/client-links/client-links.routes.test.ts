import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { pdfText } from '../../../../tests/pdf-text.ts';
import { snapshotDatabase } from '../../../../tests/reliability/database-snapshot.ts';
import type { ClientLinkState, CreatedClientLink } from '../../../shared/schemas/client-links.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import { writtenDay } from '../../../shared/dates.ts';
import { linkGuessLimit } from '../auth/throttle.ts';

let testApp: TestApp;
type Owner = Awaited<ReturnType<typeof joinAs>>;
let owner: Owner;
let other: Owner;
let client: Client;

beforeAll(async () => {
  testApp = await buildTestApp();
  owner = await joinAs(testApp.app);
  other = await joinAs(testApp.app);
  const settings = await inject('PUT', '/api/settings', owner, {
    preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
    rates: [],
    business: {
      name: 'Hana Studio',
      address: '1 Main St',
      paymentDetails: 'Bank 123-456',
      taxId: 'C 2584563202',
    },
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const added = await inject('POST', '/api/clients', owner, {
    ...buildClient({ firstName: 'Mina', lastName: 'Cho', currency: 'USD' }),
    balance: 12_345,
  });
  expect(added.statusCode).toBe(201);
  client = added.json<Client>();
});
afterAll(async () => {
  await testApp.close();
});

let addressCounter = 0;
/** Each test's page requests come from an address of their own, so the guess counter is theirs. */
const freshAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

function inject(
  method: InjectOptions['method'],
  url: string,
  who: Owner | null,
  payload?: object,
  remoteAddress = '127.0.0.1',
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method,
    url,
    remoteAddress,
    headers: who ? { cookie: who.cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });
}

async function createLink(body: object = {}, clientId = client.id): Promise<CreatedClientLink> {
  const response = await inject('POST', `/api/clients/${clientId}/link`, owner, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedClientLink>();
}

const open = (path: string, address = freshAddress()) =>
  inject('GET', path, null, undefined, address);

const linkEvents = async (action: string) =>
  (
    await testApp.app.db.kysely
      .selectFrom('events')
      .select('id')
      .where('client_id', '=', client.id)
      .where('action', '=', action as never)
      .execute()
  ).length;

describe('a client link', () => {
  it('opens the client’s statement signed out, with no cookie, noindex and no referrer', async () => {
    const { path, link } = await createLink();
    expect(path).toMatch(/^\/c\/[\w-]{43}$/);
    expect(link).toMatchObject({ expiresAt: null, lastOpenedAt: null, expired: false });
    const page = await open(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).not.toContain('script');
    expect(page.body).toContain('<meta name="robots" content="noindex');
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain('$123.45');
    expect(page.body).toContain('Bank 123-456');
    expect(page.body).toContain('Mina Cho');
    // The business's tax id, and the statement's date and number as the owner's statement has them.
    expect(page.body).toContain('Tax ID: C 2584563202');
    const owners = await inject('GET', `/api/clients/${client.id}/statement`, owner);
    const { date, number } = owners.json<{ date: string; number: string }>();
    expect(page.body).toContain(`Statement date: ${writtenDay(date, 'en-US')}`);
    expect(page.body).toContain(`Statement no.: ${number}`);
    // Nothing came before the period: its balance brought forward is a figure, not an empty cell.
    expect(page.body).toContain(
      'Balance brought forward</td><td></td><td></td><td class="end nowrap">0.00</td>',
    );
    // Nothing of the app: no link into it, no other client.
    expect(page.body).not.toMatch(/href="\/(?!c\/)/);

    for (const file of ['statement.pdf', 'statement.csv']) {
      const download = await open(`${path}/${file}`);
      expect(download.statusCode, file).toBe(200);
      expect(download.headers['set-cookie'], file).toBeUndefined();
      expect(download.headers['x-robots-tag'], file).toContain('noindex');
      expect(download.headers['referrer-policy'], file).toBe('no-referrer');
    }
    const csv = await open(`${path}/statement.csv`);
    expect(csv.body).toContain('Amount due,123.45');
  });

  it('speaks the client’s language, else the owner’s', async () => {
    const { path } = await createLink();
    const set = await inject('PUT', `/api/clients/${client.id}/language`, owner, {
      language: 'ko',
    });
    expect(set.json()).toEqual({ language: 'ko' });
    const page = await open(path);
    expect(page.body).toContain('<html lang="ko">');
    expect(page.body).toContain('청구 금액');
    expect(page.body).toContain('사업자등록번호: C 2584563202');
    expect(page.body).toContain('명세서 번호: ');
    const pdf = await open(`${path}/statement.pdf`);
    expect((await pdfText(pdf.rawPayload)).text).toContain('청구 금액');
    await inject('PUT', `/api/clients/${client.id}/language`, owner, { language: null });
    await inject('PUT', '/api/settings/language', owner, { language: 'ms' });
    expect((await open(path)).body).toContain('<html lang="ms">');
    await inject('PUT', '/api/settings/language', owner, { language: null });
    const state = await inject('GET', `/api/clients/${client.id}/link`, owner);
    expect(state.json<ClientLinkState>().language).toBeNull();
    const wrong = await inject('PUT', `/api/clients/${client.id}/language`, owner, {
      language: 'fr',
    });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json<{ error: { fields: object } }>().error.fields)).toEqual([
      'language',
    ]);
  });

  it('is replaced by a new one, and a revoked one shows a plain page naming the business', async () => {
    const first = await createLink();
    const second = await createLink({ expiresInDays: 30 });
    const replaced = await open(first.path);
    expect(replaced.statusCode).toBe(410);
    expect(replaced.body).toContain('This link is no longer valid; ask Hana Studio for a new one.');
    expect(replaced.headers['set-cookie']).toBeUndefined();
    expect((await open(second.path)).statusCode).toBe(200);
    const state = await inject('GET', `/api/clients/${client.id}/link`, owner);
    expect(state.json<ClientLinkState>().link?.expiresAt).toBe(second.link.expiresAt);

    const revoked = await inject('DELETE', `/api/clients/${client.id}/link`, owner);
    expect(revoked.statusCode).toBe(204);
    const page = await open(second.path);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('Hana Studio');
    expect(page.body).not.toContain('Mina');
    expect((await open(`${second.path}/statement.pdf`)).statusCode).toBe(410);
    expect(
      (await inject('GET', `/api/clients/${client.id}/link`, owner)).json<ClientLinkState>().link,
    ).toBeNull();
    expect((await inject('DELETE', `/api/clients/${client.id}/link`, owner)).statusCode).toBe(404);
  });

  it('stops at its expiry', async () => {
    const { path } = await createLink({ expiresInDays: 7 });
    expect((await open(path)).statusCode).toBe(200);
    await testApp.app.db.kysely
      .updateTable('client_links')
      .set({ expires_at: Date.now() - 1000 })
      .where('client_id', '=', client.id)
      .where('revoked_at', 'is', null)
      .execute();
    const page = await open(path);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('ask Hana Studio');
    const state = await inject('GET', `/api/clients/${client.id}/link`, owner);
    expect(state.json<ClientLinkState>().link?.expired).toBe(true);
    expect(
      (await inject('POST', `/api/clients/${client.id}/link`, owner, { expiresInDays: 5 }))
        .statusCode,
    ).toBe(400);
  });

  it('keeps only the secret’s hash: the secret is in no table', async () => {
    const { path } = await createLink();
    const secret = path.slice('/c/'.length);
    const snapshot = JSON.stringify(await snapshotDatabase(testApp.app));
    expect(snapshot).not.toContain(secret);
    expect(snapshot).toContain('link_created');
  });

  it('shows an unknown link a page that names nobody', async () => {
    const page = await open(`/c/${'A'.repeat(43)}`);
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('ask whoever sent it to you for a new one');
    expect(page.body).not.toContain('Hana');
    expect(page.headers['set-cookie']).toBeUndefined();
    expect((await open('/c/short')).statusCode).toBe(404);
  });

  it('answers any other address under /c/ with the same plain page, headers and guess count', async () => {
    const { path } = await createLink();
    const address = freshAddress();
    for (const url of [`${path}/other`, `${path}/statement.pdf/x`, '/c/', `/c/a/b/c`]) {
      const page = await open(url, address);
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type'], url).toMatch(/^text\/html/);
      expect(page.headers['x-robots-tag'], url).toContain('noindex');
      expect(page.headers['referrer-policy'], url).toBe('no-referrer');
      expect(page.headers['cache-control'], url).toBe('no-store');
      expect(page.headers['content-security-policy'], url).toContain("default-src 'none'");
      // The address typed is not echoed back into a page someone may screenshot or share.
      expect(page.body, url).not.toContain(path.slice(3));
    }
    const counted = await testApp.app.db.kysely
      .selectFrom('login_throttle')
      .select('failures')
      .where('key', '=', `link:${address}`)
      .executeTakeFirst();
    expect(counted?.failures).toBe(4);
  });

  it('refuses an address after too many guesses, even with a good link', async () => {
    const { path } = await createLink();
    const address = freshAddress();
    // A good link opened often is no guess.
    for (let index = 0; index < 3; index++)
      expect((await open(path, address)).statusCode).toBe(200);
    for (let guess = 0; guess < linkGuessLimit; guess++) {
      const miss = await open(`/c/${'B'.repeat(42)}${guess % 10}`, address);
      expect(miss.statusCode).toBe(404);
    }
    const refused = await open(path, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.body).toContain('Too many attempts');
    expect((await open(`${path}/statement.pdf`, address)).statusCode).toBe(429);
    // Another address is not held back.
    expect((await open(path)).statusCode).toBe(200);
  });

  it('records "opened" in the history once an hour, however often it is reloaded', async () => {
    const { path } = await createLink();
    const before = await linkEvents('link_opened');
    for (let index = 0; index < 5; index++) expect((await open(path)).statusCode).toBe(200);
    expect(await linkEvents('link_opened')).toBe(before + 1);
    const state = await inject('GET', `/api/clients/${client.id}/link`, owner);
    expect(state.json<ClientLinkState>().link?.lastOpenedAt).not.toBeNull();
    const history = await inject('GET', `/api/clients/${client.id}/history`, owner);
    expect(history.body).toContain('link_opened');

    // An hour later, the next opening is recorded again.
    await testApp.app.db.kysely
      .updateTable('client_links')
      .set({ opened_recorded_at: Date.now() - 60 * 60_000 - 1 })
      .where('client_id', '=', client.id)
      .where('revoked_at', 'is', null)
      .execute();
    expect((await open(path)).statusCode).toBe(200);
    expect((await open(path)).statusCode).toBe(200);
    expect(await linkEvents('link_opened')).toBe(before + 2);
  });

  it('lets no other owner make, read or revoke a client’s link, and shows only its own client', async () => {
    const { path } = await createLink();
    const theirs = await inject(
      'POST',
      '/api/clients',
      other,
      buildClient({ lastName: 'Otherone' }),
    );
    const theirClient = theirs.json<Client>();
    const before = await snapshotDatabase(testApp.app);
    for (const [method, url, body] of [
      ['GET', `/api/clients/${client.id}/link`, undefined],
      ['POST', `/api/clients/${client.id}/link`, {}],
      ['DELETE', `/api/clients/${client.id}/link`, undefined],
      ['PUT', `/api/clients/${client.id}/language`, { language: 'ko' }],
    ] as const) {
      const response = await inject(method, url, other, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
    expect((await open(path)).statusCode).toBe(200);
    const page = await open(path);
    expect(page.body).toContain('Mina Cho');
    expect(page.body).not.toContain('Otherone');
    expect(theirClient.id).not.toBe(client.id);
  });

  it('is made and revoked with an access token too', async () => {
    const token = await inject('POST', '/api/tokens', owner, {
      name: 'link',
      access: 'read-write',
    });
    const { secret } = token.json<{ secret: string }>();
    const made = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/link`,
      headers: { authorization: `Bearer ${secret}` },
      payload: { expiresInDays: null },
    });
    expect(made.statusCode).toBe(201);
    const revoked = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}/link`,
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(revoked.statusCode).toBe(204);
  });
});
