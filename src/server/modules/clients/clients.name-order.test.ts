import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';

// Issue 43: names sort and are searched as a reader expects (decision 025), the same on both
// databases, across the list's keyset pages.

let testApp: TestApp;
let cookie: string;

const names: [string, string][] = [
  ['Zoë', 'Saldaña'],
  ['Wei', 'Ming'],
  ['민준', '김'],
  ['Émilie', 'Dubois'],
  ['Łukasz', 'Nowak'],
  ['Anders', 'Ångström'],
  ['emilie', 'Adams'],
  ['ADA', 'lovelace'],
  ['서연', '이'],
];

async function request(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const response = await testApp.app.inject({ method, url, headers: { cookie }, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response;
}
const list = async (query: string) =>
  (await request('GET', `/api/clients${query}`)).json<ClientList>();
const shown = (clients: Client[]) =>
  clients.map((client) => `${client.firstName} ${client.lastName}`);
const search = async (text: string) =>
  shown((await list(`?q=${encodeURIComponent(text)}`)).clients);

beforeAll(async () => {
  testApp = await buildTestApp();
  ({ cookie } = await joinAs(testApp.app));
  for (const [firstName, lastName] of names)
    await request('POST', '/api/clients', buildClient({ firstName, lastName }));
});
afterAll(async () => {
  await testApp.close();
});

async function everyPage(query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: ClientList = await list(
      `?sort=name&limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    seen.push(...shown(page.clients));
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

describe('the list in name order', () => {
  const byName = [
    'ADA lovelace',
    'Anders Ångström',
    'emilie Adams',
    'Émilie Dubois',
    'Łukasz Nowak',
    'Wei Ming',
    'Zoë Saldaña',
    // Hangul after the Latin letters, in Hangul order, a Korean name by its family name first.
    '민준 김',
    '서연 이',
  ];

  it('sorts accented and plain letters together, whatever the case, across page boundaries', async () => {
    for (const limit of [2, 3, 4]) expect(await everyPage('', limit)).toEqual(byName);
    expect(await everyPage('&dir=desc', 2)).toEqual([...byName].reverse());
  });

  it('places an edited name where its new key sorts', async () => {
    const [ada] = (await list('?q=lovelace')).clients;
    if (!ada) throw new Error('Ada is missing');
    await request('PUT', `/api/clients/${ada.id}`, {
      ...buildClient({ firstName: 'Ève', lastName: 'Lovelace' }),
      version: ada.version,
    });
    expect(await everyPage('', 3)).toEqual([
      'Anders Ångström',
      'emilie Adams',
      'Émilie Dubois',
      'Ève Lovelace',
      'Łukasz Nowak',
      'Wei Ming',
      'Zoë Saldaña',
      '민준 김',
      '서연 이',
    ]);
    expect(await search('eve')).toEqual(['Ève Lovelace']);
  });
});

describe('the search by name', () => {
  it('finds a name with or without its accents, in either case', async () => {
    expect(await search('emilie')).toEqual(['emilie Adams', 'Émilie Dubois']);
    expect(await search('Émilie')).toEqual(['emilie Adams', 'Émilie Dubois']);
    expect(await search('ÉMILIE DU')).toEqual(['Émilie Dubois']);
    expect(await search('lukasz')).toEqual(['Łukasz Nowak']);
    expect(await search('angström')).toEqual(['Anders Ångström']);
    expect(await search('zoe salda')).toEqual(['Zoë Saldaña']);
  });

  it('finds a Korean name as it is shown, family name first', async () => {
    expect(await search('김민준')).toEqual(['민준 김']);
    expect(await search('민준')).toEqual(['민준 김']);
  });

  it('still matches e-mails whatever their case', async () => {
    await request(
      'POST',
      '/api/clients',
      buildClient({ firstName: 'Rafał', lastName: 'Kowal', email: 'R.Kowal@Poczta.example' }),
    );
    expect(await search('r.kowal@poczta')).toEqual(['Rafał Kowal']);
    expect(await search('Rafał')).toEqual(['Rafał Kowal']);
    expect(await search('rafal')).toEqual(['Rafał Kowal']);
  });
});
