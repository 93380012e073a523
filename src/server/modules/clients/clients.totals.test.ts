import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { keepSumsOfRowsWrittenByHand } from '../../../../tests/kept-sums.ts';
import type { ClientList } from '../../../shared/schemas/clients.ts';

let testApp: TestApp;
let cookie: string;

/**
 * About 922,000 clients at the largest KRW balance add up past 2^63. Writing that many rows
 * takes a minute, so a few rows with balances of 2^62 stand in for them: the sum is what
 * overflows, not the count.
 */
const huge = 2n ** 62n;
/** The first page (one row, and one more to know there is a next page) shows only small ones. */
const balances: [string, bigint][] = [
  ['CAD', 5n],
  ['CAD', 0n],
  ['KRW', huge],
  ['KRW', huge],
  ['KRW', huge],
  ['KRW', -1n],
  ['USD', -huge],
  ['USD', -huge],
  ['USD', -huge],
];

beforeAll(async () => {
  testApp = await buildTestApp();
  const owner = await joinAs(testApp.app);
  cookie = owner.cookie;
  // Written straight into the table: the routes refuse balances this large one by one.
  for (const [index, [currency, balance]] of balances.entries()) {
    await sql`
      insert into clients (id, book_id, first_name, last_name, name_key, email, phone, balance,
        currency, version, created_at, updated_at)
      values (${`huge-${index}`}, ${owner.userId}, 'Big', ${`Owed${index}`}, ${`big owed${index}`},
        ${`big${index}@example.com`}, '1', ${sql.raw(balance.toString())}, ${currency}, 1, 0, 0)
    `.execute(testApp.app.db.kysely);
  }
  // And the sums the write path keeps beside them.
  await keepSumsOfRowsWrittenByHand(testApp.app.db.kysely, owner.userId);
});

afterAll(async () => {
  await testApp.close();
});

describe('Total Owed', () => {
  it('adds balances past what a 64-bit integer holds, exactly, in either direction', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/api/clients?limit=1',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<ClientList>();
    expect(body.count).toBe(balances.length);
    expect(body.totals).toEqual([
      { currency: 'KRW', total: (3n * huge - 1n).toString() },
      { currency: 'USD', total: (-3n * huge).toString() },
      { currency: 'CAD', total: '5' },
    ]);
  });
});
