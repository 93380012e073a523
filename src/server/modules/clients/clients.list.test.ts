import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { ClientInput, ClientList } from '../../../shared/schemas/clients.ts';
import { listClientsPage, type ClientFilter } from './clients.queries.ts';

let testApp: TestApp;
let cookie: string;
let bookId: string;
let otherCookie: string;

const people: ClientInput[] = [
  buildClient({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@engines.example',
    phone: '+44 20 7946 0018',
    balance: 12_345,
    currency: 'USD',
  }),
  buildClient({
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@navy.example',
    phone: '+1 202 555 0147',
    balance: -500,
    currency: 'USD',
  }),
  buildClient({
    firstName: 'Min',
    lastName: 'Kim',
    email: 'min@seoul.example',
    phone: '010 1234 5678',
    balance: 3_000_000,
    currency: 'KRW',
  }),
  buildClient({
    firstName: 'Siti',
    lastName: 'Aziz',
    email: 'siti_aziz@kl.example',
    phone: '+60 3 1234 5678',
    balance: 5_000,
    currency: 'MYR',
  }),
  buildClient({
    firstName: 'Chloé',
    lastName: 'Tremblay',
    email: 'chloe+bills@qc.example',
    phone: '+1 514 555 0199',
    balance: 0,
    currency: 'CAD',
  }),
  buildClient({
    firstName: 'Alan',
    lastName: 'Turing',
    email: 'alan@bletchley.example',
    phone: '+44 20 7946 0999',
    balance: 1,
    currency: 'USD',
  }),
];

beforeAll(async () => {
  testApp = await buildTestApp();
  ({ cookie, userId: bookId } = await joinAs(testApp.app));
  ({ cookie: otherCookie } = await joinAs(testApp.app));
  for (const person of people) {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie },
      payload: person,
    });
    expect(response.statusCode).toBe(201);
  }
  await testApp.app.inject({
    method: 'POST',
    url: '/api/clients',
    headers: { cookie: otherCookie },
    payload: buildClient({ firstName: 'Ada', lastName: 'Other' }),
  });
});
afterAll(async () => {
  await testApp.close();
});

async function list(query: string, as = cookie): Promise<ClientList> {
  const response = await testApp.app.inject({
    method: 'GET',
    url: `/api/clients${query}`,
    headers: { cookie: as },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ClientList>();
}
const names = (result: ClientList) => result.clients.map((client) => client.firstName);

describe('the client list', () => {
  it('pages through everything in name order, a page at a time, with the count of all', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ClientList = await list(`?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.clients.length).toBeLessThanOrEqual(4);
      expect(page.count).toBe(people.length);
      seen.push(...names(page));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(['Ada', 'Alan', 'Chloé', 'Grace', 'Min', 'Siti']);
  });

  it('finds by part of a name, an e-mail or a phone number, whatever the case', async () => {
    expect(names(await list('?q=LOVE'))).toEqual(['Ada']);
    expect(names(await list('?q=navy.ex'))).toEqual(['Grace']);
    expect(names(await list('?q=1234%205678'))).toEqual(['Min', 'Siti']);
    expect(names(await list('?q=chloé'))).toEqual(['Chloé']);
    // Characters that mean something to LIKE are searched for as themselves.
    expect(names(await list('?q=siti_'))).toEqual(['Siti']);
    expect(names(await list('?q=%25'))).toEqual([]);
  });

  it('filters to those who owe money, or one currency, and the totals follow', async () => {
    const owing = await list('?owes=true');
    expect(names(owing)).toEqual(['Ada', 'Alan', 'Min', 'Siti']);
    // By hand: USD 123.45 + 0.01 = 123.46 (Grace's credit is not owed); KRW 3,000,000; MYR 50.00.
    expect(owing.totals).toEqual([
      { currency: 'KRW', total: '3000000' },
      { currency: 'USD', total: '12346' },
      { currency: 'MYR', total: '5000' },
    ]);
    const usd = await list('?currency=USD');
    expect(names(usd)).toEqual(['Ada', 'Alan', 'Grace']);
    expect(usd.count).toBe(3);
    expect(usd.totals).toEqual([{ currency: 'USD', total: '11846' }]);
  });

  it('sorts by any column; balance sorts by amount within a currency', async () => {
    // Currencies by code (CAD, KRW, MYR, USD), amounts in order within each.
    const byBalance = ['Chloé', 'Min', 'Siti', 'Grace', 'Alan', 'Ada'];
    expect(names(await list('?sort=balance'))).toEqual(byBalance);
    expect(names(await list('?sort=balance&dir=desc'))).toEqual([...byBalance].reverse());
    expect(names(await list('?sort=email'))).toEqual([
      'Ada',
      'Alan',
      'Chloé',
      'Grace',
      'Min',
      'Siti',
    ]);
    expect(names(await list('?sort=created&dir=desc'))).toEqual([
      'Alan',
      'Chloé',
      'Siti',
      'Min',
      'Grace',
      'Ada',
    ]);
    const firstPage = await list('?sort=balance&dir=desc&limit=2');
    const secondPage = await list(`?sort=balance&dir=desc&limit=2&cursor=${firstPage.nextCursor}`);
    expect([...names(firstPage), ...names(secondPage)]).toEqual(['Ada', 'Alan', 'Grace', 'Siti']);
  });

  it("never shows another owner's clients, whatever the filter", async () => {
    expect(names(await list('?q=ada', otherCookie))).toEqual(['Ada']);
    expect((await list('?q=ada', otherCookie)).clients[0]?.lastName).toBe('Other');
  });

  it.each([
    ['?sort=password', 'sort'],
    ['?dir=sideways', 'dir'],
    ['?currency=EUR', 'currency'],
    ['?owes=maybe', 'owes'],
    ['?limit=0', 'limit'],
    ['?limit=201', 'limit'],
    ['?cursor=not-a-cursor', 'cursor'],
    [`?cursor=${Buffer.from('[1,2,3]').toString('base64url')}`, 'cursor'],
    // The right length but the wrong types: refused before it reaches the database.
    [`?sort=created&cursor=${Buffer.from('["abc","x"]').toString('base64url')}`, 'cursor'],
    [`?sort=balance&cursor=${Buffer.from('["USD","abc","x"]').toString('base64url')}`, 'cursor'],
    [`?q=${'x'.repeat(101)}`, 'q'],
  ])('refuses %s, naming %s', async (query, field) => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients${query}`,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ error: { fields: object } }>().error.fields)).toEqual([
      field,
    ]);
  });

  it('pages the overdue filter the same whichever index it reads, many matches or few', async () => {
    // Everyone owing since today is overdue by a day far ahead.
    const filter: ClientFilter = {
      bookId,
      overdueOn: '2999-01-01',
      dialect: testApp.app.db.dialect,
    };
    const readAll = async (manyMatches: boolean) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listClientsPage(testApp.app.db.kysely, filter, {
          sort: 'name',
          dir: 'desc',
          cursor,
          limit: 2,
          manyMatches,
        });
        seen.push(...page.clients.map((client) => client.firstName));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    expect(await readAll(false)).toEqual(['Siti', 'Min', 'Alan', 'Ada']);
    expect(await readAll(true)).toEqual(['Siti', 'Min', 'Alan', 'Ada']);
  });
});
