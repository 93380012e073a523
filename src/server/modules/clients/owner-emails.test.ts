import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { sqliteQueryPlansForFile } from '../../../../tests/query-plans.ts';
import { slowReadLaneMark } from '../../db/sqlite/slow-read-lane.ts';
import { ownerEmailKeys } from './clients.queries.ts';

const plans = sqliteQueryPlansForFile();

describe('the import’s read of every e-mail of the owner', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('goes a page at a time along the owner’s e-mail index, each page a quick read', async () => {
    // Read whole, the rows of 80,000 clients held the request thread for 43-68 ms as they came
    // in (docs/performance.md); a page of them is short, for the reader and for that thread.
    await ownerEmailKeys(plans.current.recorder, 'owner');
    const [read] = plans.current.take();
    expect(read?.sql).toMatch(/^select "email" from "clients" .* limit \?$/);
    expect(read?.sql.endsWith(slowReadLaneMark)).toBe(false);
    expect(read?.plan).toEqual([
      'SEARCH clients USING COVERING INDEX clients_owner_email (book_id=?)',
    ]);
  });

  it('finds every e-mail, folded, across pages and among clients with the same e-mail', async () => {
    const { app } = testApp;
    const owner = await joinAs(app);
    const other = await joinAs(app);
    const emails = [
      'same@example.com',
      'same@example.com',
      'same@example.com',
      'Mixed.Case@Example.com',
      'a@example.com',
      'z@example.com',
      'm@example.com',
    ];
    for (const email of emails)
      await injectOk(app, 'POST', '/api/clients', owner.cookie, buildClient({ email }));
    await injectOk(
      app,
      'POST',
      '/api/clients',
      other.cookie,
      buildClient({ email: 'x@example.com' }),
    );

    const expected = new Set(emails.map((email) => email.toLowerCase()));
    for (const pageSize of [1, 2, 3, 7, 2000]) {
      expect(await ownerEmailKeys(app.db.kysely, owner.userId, pageSize)).toEqual(expected);
    }
    expect(await ownerEmailKeys(app.db.kysely, 'no such owner', 2)).toEqual(new Set());
  });
});
