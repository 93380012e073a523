import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { refuseClientInsert } from '../../../../tests/refused-insert.ts';
import type { ClientList, ImportResult } from '../../../shared/schemas/clients.ts';

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const inject = (method: 'GET' | 'POST', url: string, cookie: string | null, payload?: object) =>
  testApp.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload ? { payload } : {}),
  });

async function snapshot() {
  const db = testApp.app.db.kysely;
  return {
    clients: await db.selectFrom('clients').selectAll().orderBy('id').execute(),
    events: await db.selectFrom('events').selectAll().orderBy('id').execute(),
  };
}

describe('CSV export', () => {
  it('writes a UTF-8 file with a byte order mark, a header, decimal amounts and ISO codes, for the filter', async () => {
    const { cookie } = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    for (const client of [
      buildClient({
        firstName: 'Zoë',
        lastName: 'Quote "Q", Esq.',
        balance: 123_450,
        currency: 'USD',
      }),
      buildClient({ firstName: 'Min', lastName: 'Kim', balance: 3_000_000, currency: 'KRW' }),
      buildClient({ firstName: 'Siti', lastName: 'Aziz', balance: -5, currency: 'MYR' }),
    ]) {
      expect((await inject('POST', '/api/clients', cookie, client)).statusCode).toBe(201);
    }
    await inject('POST', '/api/clients', other.cookie, buildClient({ firstName: 'Stranger' }));

    const all = await inject('GET', '/api/clients/export.csv', cookie);
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(all.headers['content-disposition']).toMatch(
      /^attachment; filename="balance-clients-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = all.body.split('\n');
    // SPEC's six columns first, then a business client's (empty for a person).
    expect(lines[0]).toBe(
      '\uFEFFFirst name,Last name,Email,Phone,Balance,Currency,Company,Address line 1,Address line 2,City,Postcode,Country,Tax ID,Notes',
    );
    expect(lines.slice(1, 4)).toEqual([
      expect.stringMatching(/^Min,Kim,.*,3000000,KRW,,,,,,,,$/),
      expect.stringMatching(/^Siti,Aziz,.*,-0\.05,MYR,,,,,,,,$/),
      expect.stringMatching(/^Zoë,"Quote ""Q"", Esq\.",.*,1234\.50,USD,,,,,,,,$/),
    ]);
    expect(all.body).not.toContain('Stranger');
    // A spreadsheet would run "+44 …" as a formula: it leaves with a protecting apostrophe.
    expect(lines[1]).toContain(",'+44 20 7946 0018,");

    const filtered = await inject('GET', '/api/clients/export.csv?currency=KRW', cookie);
    expect(filtered.body.trim().split('\n')).toHaveLength(2);
  });

  it("exports all of an owner's data as JSON: clients, history and settings", async () => {
    const { cookie, email } = await joinAs(testApp.app);
    await inject('POST', '/api/clients', cookie, buildClient({ firstName: 'Ada' }));
    const response = await inject('GET', '/api/export.json', cookie);
    expect(response.statusCode).toBe(200);
    const data = response.json<{
      account: { email: string };
      clients: { firstName: string }[];
      history: { action: string }[];
      settings: object;
    }>();
    expect(data.account.email).toBe(email);
    expect(data.clients.map((client) => client.firstName)).toEqual(['Ada']);
    expect(data.history.map((entry) => entry.action)).toEqual(['created']);
    expect(data.settings).toMatchObject({ preferences: { disableBalanceOnAdd: false }, rates: [] });
  });

  it('writes each history event as the history shows it, with its client, in canonical JSON', async () => {
    const { cookie } = await joinAs(testApp.app);
    const created = await inject('POST', '/api/clients', cookie, {
      ...buildClient({ firstName: 'Zoë "Quoted"', lastName: 'Ünïcode \u2028 line' }),
      balance: 1250,
    });
    const client = created.json<{ id: string; version: number }>();
    await inject('POST', `/api/clients/${client.id}/entries`, cookie, {
      kind: 'payment',
      amount: 250,
      date: '2026-11-02',
      note: 'Cash, "thanks"',
    });
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie },
      payload: {
        preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
        rates: [],
      },
    });
    expect(saved.statusCode).toBe(200);

    const json = await inject('GET', '/api/export.json', cookie);
    const { history } = json.json<{ history: ({ clientId: string | null } & object)[] }>();
    const shown = await inject('GET', `/api/clients/${client.id}/history`, cookie);
    const clientHistory = shown.json<{ entries: object[] }>().entries;
    // The client's events (newest first there), then the change of settings, which has none.
    // Compared as text, so the keys' order counts too.
    expect(JSON.stringify(history.filter((event) => event.clientId === client.id))).toBe(
      JSON.stringify(
        [...clientHistory].reverse().map((event) => ({ ...event, clientId: client.id })),
      ),
    );
    expect(history.filter((event) => event.clientId === null)).toHaveLength(1);
    // Byte for byte what writing each event's parsed form again would give.
    const section = json.body.slice(
      json.body.indexOf('"history":') + '"history":'.length,
      json.body.indexOf(',"bankBatches":'),
    );
    expect(section).toBe(JSON.stringify(history));
  });

  it('streams every client and every history entry, across many pages, in the same shape', async () => {
    const { cookie } = await joinAs(testApp.app);
    // More than two pages of the export's reads (1,000 rows each) and its chunks (500).
    const count = 2_345;
    const rows = Array.from({ length: count }, (_, i) =>
      buildClient({
        firstName: `Paged${String(i).padStart(5, '0')}`,
        email: `paged${i}@example.com`,
      }),
    );
    const imported = await inject('POST', '/api/clients/import', cookie, {
      rows,
      dryRun: false,
      skipDuplicates: true,
    });
    expect(imported.json<ImportResult>().imported).toBe(count);

    const json = await inject('GET', '/api/export.json', cookie);
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    const data = json.json<{
      clients: { id: string; firstName: string; balance: number }[];
      entries: { clientId: string; kind: string; amount: number }[];
      history: { id: number; action: string }[];
    }>();
    expect(Object.keys(data)).toEqual([
      'format',
      'version',
      'exportedAt',
      'account',
      'book',
      'settings',
      'clients',
      'entries',
      'paymentTargets',
      'history',
      'bankBatches',
      'bankLines',
      'bankPayerRules',
      'bankLayouts',
    ]);
    // Each balance other than 0 came in as an opening entry: all of them, across pages.
    const owing = data.clients.filter((client) => client.balance !== 0);
    expect(owing.length).toBeGreaterThan(1_000);
    expect(data.entries.map((entry) => [entry.clientId, entry.kind, entry.amount])).toEqual(
      owing.map((client) => [client.id, 'opening', client.balance]),
    );
    expect(data.clients.map((client) => client.firstName)).toEqual(
      rows.map((row) => row.firstName),
    );
    expect(data.history).toHaveLength(count);
    expect(data.history.every((entry) => entry.action === 'imported')).toBe(true);
    const ids = data.history.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));

    const csv = await inject('GET', '/api/clients/export.csv', cookie);
    const lines = csv.body.trimEnd().split('\n');
    expect(lines).toHaveLength(count + 1);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(
      rows.map((row) => row.firstName),
    );
  });

  it('answers a visitor 401 before reading the body', async () => {
    const response = await inject('POST', '/api/clients/import', null, { rows: 'not rows' });
    expect(response.statusCode).toBe(401);
  });

  it('needs a session', async () => {
    expect((await inject('GET', '/api/clients/export.csv', null)).statusCode).toBe(401);
    expect((await inject('GET', '/api/export.json', null)).statusCode).toBe(401);
    expect(
      (
        await inject('POST', '/api/clients/import', null, {
          rows: [],
          dryRun: true,
          skipDuplicates: true,
        })
      ).statusCode,
    ).toBe(401);
  });
});

describe('CSV import', () => {
  it("checks every row with the form's rules and flags duplicates, writing nothing on a dry run", async () => {
    const { cookie } = await joinAs(testApp.app);
    await inject('POST', '/api/clients', cookie, buildClient({ email: 'known@example.com' }));
    const before = await snapshot();
    const rows = [
      buildClient({ email: 'new@example.com' }),
      { ...buildClient(), firstName: 'A', phone: '123' },
      buildClient({ email: 'KNOWN@example.com' }),
      buildClient({ email: 'new@example.com' }),
      'not even an object',
    ];
    const response = await inject('POST', '/api/clients/import', cookie, {
      rows,
      dryRun: true,
      skipDuplicates: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<ImportResult>()).toEqual({
      imported: 0,
      balancesZeroed: false,
      results: [
        { row: 0, status: 'ok' },
        {
          row: 1,
          status: 'invalid',
          errors: { firstName: 'must be at least 2 characters', phone: 'enter valid phone' },
        },
        { row: 2, status: 'duplicate', duplicateOf: 'existing' },
        { row: 3, status: 'duplicate', duplicateOf: 'file' },
        { row: 4, status: 'invalid', errors: expect.any(Object) as object },
      ],
    });
    expect(await snapshot()).toEqual(before);
  });

  it('writes the valid rows in one go, each with an "imported" history entry', async () => {
    const { cookie } = await joinAs(testApp.app);
    await inject('POST', '/api/clients', cookie, buildClient({ email: 'known@example.com' }));
    const rows = [
      buildClient({ firstName: 'Fresh', email: 'fresh@example.com', balance: 700 }),
      { ...buildClient(), email: 'broken' },
      buildClient({ firstName: 'Again', email: 'known@example.com' }),
    ];
    const skipped = await inject('POST', '/api/clients/import', cookie, {
      rows,
      dryRun: false,
      skipDuplicates: true,
    });
    expect(skipped.json<ImportResult>().imported).toBe(1);
    const list = (await inject('GET', '/api/clients?q=fresh', cookie)).json<ClientList>();
    expect(list.clients).toHaveLength(1);
    const history = (
      await inject('GET', `/api/clients/${list.clients[0]?.id}/history`, cookie)
    ).json<{ entries: { action: string }[] }>();
    expect(history.entries.map((entry) => entry.action)).toEqual(['imported']);

    const kept = await inject('POST', '/api/clients/import', cookie, {
      rows: [rows[2]],
      dryRun: false,
      skipDuplicates: false,
    });
    expect(kept.json<ImportResult>().imported).toBe(1);
    expect((await inject('GET', '/api/clients?q=known', cookie)).json<ClientList>().count).toBe(2);
  });

  it('imports 10,000 rows in one request', async () => {
    const { cookie } = await joinAs(testApp.app);
    const rows = Array.from({ length: 10_000 }, (_, i) =>
      buildClient({ email: `bulk${i}@example.com`, balance: i }),
    );
    const response = await inject('POST', '/api/clients/import', cookie, {
      rows,
      dryRun: false,
      skipDuplicates: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<ImportResult>().imported).toBe(10_000);
    const list = (await inject('GET', '/api/clients', cookie)).json<ClientList>();
    expect(list.count).toBe(10_000);
    // 0 + 1 + … + 9,999 cents.
    expect(list.totals).toEqual([{ currency: 'USD', total: String((9_999 * 10_000) / 2) }]);
  });

  it('leaves nothing behind when its writes fail part-way', async () => {
    const { cookie } = await joinAs(testApp.app);
    const db = testApp.app.db.kysely;
    const entryIds = async () =>
      (await db.selectFrom('entries').select('id').orderBy('id').execute()).map(({ id }) => id);
    const before = await snapshot();
    const entriesBefore = await entryIds();
    // The database refuses one row well after the first batch of inserts has been written.
    const allow = await refuseClientInsert(db, testApp.app.db.dialect, 'refused.late@example.com');
    try {
      const rows = Array.from({ length: 2_000 }, (_, i) =>
        buildClient({ email: i === 1_500 ? 'refused.late@example.com' : `late${i}@example.com` }),
      );
      const response = await inject('POST', '/api/clients/import', cookie, {
        rows,
        dryRun: false,
        skipDuplicates: true,
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await allow();
    }
    expect(await snapshot()).toEqual(before);
    expect(await entryIds()).toEqual(entriesBefore);
  });

  it('refuses more than 20,000 rows, or a body over 8 MiB, changing nothing', async () => {
    const { cookie } = await joinAs(testApp.app);
    const before = await snapshot();
    const tooMany = await inject('POST', '/api/clients/import', cookie, {
      // Rows as the browser sends them: a body of bare numbers is refused for its shape first.
      rows: Array.from({ length: 20_001 }, () => buildClient()),
      dryRun: false,
      skipDuplicates: true,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({
      error: { fields: { rows: 'Send at most 20000 rows at a time.' } },
    });
    const huge = await inject('POST', '/api/clients/import', cookie, {
      rows: ['x'.repeat(9 * 1024 * 1024)],
      dryRun: false,
      skipDuplicates: true,
    });
    expect(huge.statusCode).toBe(413);
    expect(await snapshot()).toEqual(before);
  });
});
