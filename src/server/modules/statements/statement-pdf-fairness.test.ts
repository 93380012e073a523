import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { pdfText } from '../../../../tests/pdf-text.ts';
import type { Client } from '../../../shared/schemas/clients.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const largeEntries = 1_000;
const period = '?from=2025-01-01&to=2025-12-31';

it("makes another owner's one-page PDF while one owner's large statements wait their turn", async () => {
  const { app } = testApp;
  const large = await joinAs(app);
  const small = await joinAs(app);
  const add = async (cookie: string, name: string) =>
    (
      await injectOk(app, 'POST', '/api/clients', cookie, buildClient({ firstName: name }))
    ).json<Client>();
  const long = await add(large.cookie, 'Long');
  const short = await add(small.cookie, 'Short');
  // A ledger of a few pages' worth of charges, written straight into the table (through the
  // route it would take longer than the PDFs it is for).
  for (let start = 0; start < largeEntries; start += 500)
    await app.db.kysely
      .insertInto('entries')
      .values(
        Array.from({ length: 500 }, (_, index) => ({
          book_id: large.userId,
          client_id: long.id,
          kind: 'charge' as const,
          amount: 1_000 + start + index,
          currency: long.currency,
          occurred_on: `2025-${String(1 + ((start + index) % 12)).padStart(2, '0')}-15`,
          due_on: null,
          note: '',
          void_of: null,
          created_by: large.userId,
          created_at: Date.now(),
          open_amount: 0,
        })),
      )
      .execute();

  const finished: string[] = [];
  const pdf = (cookie: string, clientId: string, name: string) =>
    app
      .inject({
        method: 'GET',
        url: `/api/clients/${clientId}/statement.pdf${period}`,
        headers: { cookie },
      })
      .then((response) => {
        finished.push(name);
        return response;
      });
  // Four large statements at once; once the first is made the other three are waiting (on one
  // thread for the instance, they waited in front of everybody else's).
  const largeOnes = [1, 2, 3, 4].map((n) => pdf(large.cookie, long.id, `large ${n}`));
  await Promise.race(largeOnes);
  const onePage = await pdf(small.cookie, short.id, 'one page');
  const answers = await Promise.all(largeOnes);

  expect(onePage.statusCode).toBe(200);
  expect((await pdfText(onePage.rawPayload)).text).toContain('Short');
  expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
  // Made beside the large owner's, not after all three that were waiting when it was asked for.
  const madeLater = finished.slice(finished.indexOf('one page') + 1);
  expect(madeLater.length).toBeGreaterThanOrEqual(2);
});
