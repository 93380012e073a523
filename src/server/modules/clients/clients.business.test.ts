import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { unprotectCell } from '../../../shared/csv.ts';
import { pdfText } from '../../../../tests/pdf-text.ts';
import type { Client, ClientInput, ClientList } from '../../../shared/schemas/clients.ts';
import type { HistoryEntry } from '../../../shared/schemas/events.ts';
import type { CreatedClientLink } from '../../../shared/schemas/client-links.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';

// A client can be a business (issue 56 item 1): company, billing address, tax id, private notes.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

type Method = 'GET' | 'POST' | 'PUT';
const call = (method: Method, url: string, cookie: string, payload?: object) =>
  testApp.app.inject({ method, url, headers: { cookie }, ...(payload && { payload }) });

const business = {
  company: '새봄출판 주식회사',
  addressLine1: '테헤란로 152',
  addressLine2: '12층',
  city: '서울',
  postcode: '06236',
  country: '대한민국',
  taxId: '123-45-67890',
  notes: 'Pays late in December.\nAsk for 박지우 first.',
};

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('a business client', () => {
  it('is added, read and edited with its company, address, tax id and notes', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await add(cookie, { firstName: '지우', lastName: '박', ...business });
    expect(client).toMatchObject({ firstName: '지우', lastName: '박', ...business });
    const read = await injectOk(testApp.app, 'GET', `/api/clients/${client.id}`, cookie);
    expect(read.json<Client>()).toMatchObject(business);

    // A PUT that leaves them out (a caller that does not know them) keeps them.
    const { company: _c, addressLine1: _a, notes: _n, ...rest } = { ...client };
    const kept = await call('PUT', `/api/clients/${client.id}`, cookie, {
      firstName: rest.firstName,
      lastName: rest.lastName,
      email: rest.email,
      phone: rest.phone,
      currency: rest.currency,
      balance: rest.balance,
      version: client.version,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<Client>()).toMatchObject(business);

    // '' clears one; the others stay as sent.
    const cleared = await call('PUT', `/api/clients/${client.id}`, cookie, {
      ...buildClient({ firstName: '지우', lastName: '박' }),
      email: client.email,
      balance: client.balance,
      ...business,
      company: '새봄출판',
      taxId: '',
      version: client.version + 1,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<Client>()).toMatchObject({ company: '새봄출판', taxId: '', city: '서울' });

    const history = (
      await injectOk(testApp.app, 'GET', `/api/clients/${client.id}/history`, cookie)
    ).json<{ entries: HistoryEntry[] }>().entries;
    expect(history.find((entry) => entry.action === 'edited' && entry.version === 3)).toMatchObject(
      {
        action: 'edited',
        before: { company: '새봄출판 주식회사', taxId: '123-45-67890', notes: business.notes },
        after: { company: '새봄출판', city: '서울', notes: business.notes },
      },
    );
    // A field emptied is left out of the snapshot; a ledger entry's carries no notes.
    const edited = history.find((entry) => entry.action === 'edited' && entry.version === 3);
    expect(edited?.after).not.toHaveProperty('taxId');
    expect(history.find((entry) => entry.action === 'created')?.after).not.toHaveProperty('notes');
  });

  it('is a person when the fields are left out: each one empty', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await add(cookie, {});
    expect(client).toMatchObject({
      company: '',
      addressLine1: '',
      addressLine2: '',
      city: '',
      postcode: '',
      country: '',
      taxId: '',
      notes: '',
    });
  });

  it.each([
    ['company', 'x'.repeat(201), 'Use at most 200 characters.'],
    ['postcode', '1'.repeat(21), 'Use at most 20 characters.'],
    ['taxId', '1'.repeat(51), 'Use at most 50 characters.'],
    ['notes', 'n'.repeat(2001), 'Use at most 2000 characters.'],
    ['company', 'Acme\u0000', 'Remove the control characters.'],
    ['notes', 'a\u202eb', 'Remove the control characters.'],
  ])('refuses %s of %#, naming the field, and writes nothing', async (field, value, message) => {
    const { cookie } = await joinAs(testApp.app);
    const response = await call('POST', '/api/clients', cookie, buildClient({ [field]: value }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'validation', fields: { [field]: message } },
    });
    const list = await injectOk(testApp.app, 'GET', '/api/clients', cookie);
    expect(list.json<ClientList>().count).toBe(0);
  });

  it('keeps line breaks in notes, and notes of 2,000 characters', async () => {
    const { cookie } = await joinAs(testApp.app);
    const notes = `first line\n\tsecond\r\n${'x'.repeat(1980)}`;
    const client = await add(cookie, { notes });
    expect(client.notes).toBe(notes);
  });
});

describe('the list with businesses', () => {
  it('sorts by company where there is one, else by the name, across keyset pages both ways', async () => {
    const { cookie } = await joinAs(testApp.app);
    const people = [
      { firstName: 'Zed', lastName: 'Adams', company: 'Acme Trading' },
      { firstName: 'Bea', lastName: 'Brown', company: 'Acme' },
      { firstName: 'Carl', lastName: 'Acme' },
      { firstName: 'Ann', lastName: 'Zulu', company: 'Zebra Sdn Bhd' },
      { firstName: 'Dan', lastName: 'Young' },
      { firstName: '민준', lastName: '김', company: '' },
      { firstName: 'Eve', lastName: 'Émile', company: 'émile & co' },
      { firstName: 'Amy', lastName: 'Brown', company: 'Acme' },
    ];
    for (const person of people) await add(cookie, person);
    const expected = [
      'Acme (Amy Brown)',
      'Acme (Bea Brown)',
      'Acme Trading (Zed Adams)',
      'Carl Acme',
      'Dan Young',
      'émile & co (Eve Émile)',
      'Zebra Sdn Bhd (Ann Zulu)',
      '김민준',
    ];
    const label = (client: Client) =>
      client.company
        ? `${client.company} (${client.firstName} ${client.lastName})`
        : client.lastName === '김'
          ? `${client.lastName}${client.firstName}`
          : `${client.firstName} ${client.lastName}`;
    for (const dir of ['asc', 'desc'] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `/api/clients?sort=name&dir=${dir}&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
        const page: ClientList = (await injectOk(testApp.app, 'GET', query, cookie)).json();
        seen.push(...page.clients.map(label));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(dir === 'asc' ? expected : [...expected].reverse());
    }
  });

  it('finds a business by its company and by its contact person, folded', async () => {
    const { cookie } = await joinAs(testApp.app);
    const hanbit = await add(cookie, {
      firstName: 'Mei Ling',
      lastName: 'Wong',
      company: 'Hanbit Trading Sdn Bhd',
    });
    const saebom = await add(cookie, { firstName: '지우', lastName: '박', company: '새봄출판' });
    await add(cookie, { firstName: 'Trade', lastName: 'Person' });
    const search = async (q: string) =>
      (
        await injectOk(testApp.app, 'GET', `/api/clients?q=${encodeURIComponent(q)}`, cookie)
      ).json<ClientList>();
    expect((await search('hanbit')).clients.map((client) => client.id)).toEqual([hanbit.id]);
    expect((await search('SDN BHD')).clients.map((client) => client.id)).toEqual([hanbit.id]);
    expect((await search('mei ling')).clients.map((client) => client.id)).toEqual([hanbit.id]);
    expect((await search('새봄')).clients.map((client) => client.id)).toEqual([saebom.id]);
    expect((await search('박지우')).clients.map((client) => client.id)).toEqual([saebom.id]);
    const both = await search('trad');
    expect(both.count).toBe(2);
    // Company and contact person are kept apart: no match across them.
    expect((await search('bhd mei')).count).toBe(0);
  });
});

describe("a business client's statement", () => {
  it('is addressed to the company, its contact, address and tax id; never the notes', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await add(cookie, {
      firstName: 'Mei Ling',
      lastName: 'Wong',
      currency: 'MYR',
      balance: 150_000,
      company: 'Hanbit Trading Sdn Bhd',
      addressLine1: 'Lot 5, Jalan Ampang',
      addressLine2: '',
      city: 'Kuala Lumpur',
      postcode: '50450',
      country: 'Malaysia',
      taxId: 'C2584563202',
      notes: 'SECRET-NOTE never to the client',
    });
    const statement = (
      await injectOk(testApp.app, 'GET', `/api/clients/${client.id}/statement`, cookie)
    ).json<Statement>();
    expect(statement.client).toMatchObject({
      company: 'Hanbit Trading Sdn Bhd',
      addressLine1: 'Lot 5, Jalan Ampang',
      postcode: '50450',
      taxId: 'C2584563202',
    });
    expect(JSON.stringify(statement)).not.toContain('SECRET-NOTE');

    for (const [lang, taxLabel] of [
      ['en', 'Tax ID: C2584563202'],
      ['ko', '사업자등록번호: C2584563202'],
      ['ms', 'No. cukai: C2584563202'],
    ] as const) {
      const pdf = await injectOk(
        testApp.app,
        'GET',
        `/api/clients/${client.id}/statement.pdf?lang=${lang}`,
        cookie,
      );
      const text = oneLine((await pdfText(pdf.rawPayload)).text);
      expect(text).toContain(
        `Hanbit Trading Sdn Bhd Mei Ling Wong Lot 5, Jalan Ampang 50450 Kuala Lumpur Malaysia ${taxLabel}`,
      );
      expect(text).not.toContain('SECRET-NOTE');
    }

    const link = await call('POST', `/api/clients/${client.id}/link`, cookie, {});
    expect(link.statusCode, link.body).toBe(201);
    const page = await testApp.app.inject({
      method: 'GET',
      url: link.json<CreatedClientLink>().path,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      '<p class="strong">Hanbit Trading Sdn Bhd</p><p>Mei Ling Wong</p><p class="small">Lot 5, Jalan Ampang</p><p class="small">50450 Kuala Lumpur</p><p class="small">Malaysia</p><p class="small">Tax ID: C2584563202</p>',
    );
    expect(page.body).not.toContain('SECRET-NOTE');

    const csv = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${client.id}/statement.csv`,
      cookie,
    );
    expect(csv.body).not.toContain('SECRET-NOTE');
  });
});

describe('the clients CSV', () => {
  it('exports the business columns after SPEC’s six, and imports them back', async () => {
    const { cookie } = await joinAs(testApp.app);
    await add(cookie, { firstName: '지우', lastName: '박', ...business, balance: 0 });
    await add(cookie, { firstName: 'Plain', lastName: 'Person', balance: 0 });
    const exported = await injectOk(testApp.app, 'GET', '/api/clients/export.csv', cookie);
    const rows = Papa.parse<Record<string, string>>(exported.body.replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(Object.keys(rows[0] ?? {})).toEqual([
      'First name',
      'Last name',
      'Email',
      'Phone',
      'Balance',
      'Currency',
      'Company',
      'Address line 1',
      'Address line 2',
      'City',
      'Postcode',
      'Country',
      'Tax ID',
      'Notes',
    ]);
    const business0 = rows.find((row) => row['Company'] !== '');
    expect(business0).toMatchObject({ Company: business.company, Notes: business.notes });

    // Into another account, as the import screen sends the rows (its mapping tested beside it).
    const other = await joinAs(testApp.app);
    const imported = await call('POST', '/api/clients/import', other.cookie, {
      rows: rows
        .map((cells) =>
          Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, unprotectCell(v)])),
        )
        .map((row) => ({
          firstName: row['First name'],
          lastName: row['Last name'],
          email: row['Email'],
          phone: row['Phone'],
          currency: row['Currency'],
          balance: 0,
          company: row['Company'],
          addressLine1: row['Address line 1'],
          addressLine2: row['Address line 2'],
          city: row['City'],
          postcode: row['Postcode'],
          country: row['Country'],
          taxId: row['Tax ID'],
          notes: row['Notes'],
        })),
      dryRun: false,
      skipDuplicates: false,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json<{ imported: number }>().imported).toBe(2);
    const list = (
      await injectOk(testApp.app, 'GET', '/api/clients?sort=name', other.cookie)
    ).json<ClientList>();
    expect(list.clients.find((client) => client.company !== '')).toMatchObject(business);
    expect(list.clients.find((client) => client.company === '')).toMatchObject({
      firstName: 'Plain',
      notes: '',
    });
  });
});

describe("a bank statement's line naming a business", () => {
  it('is suggested for the company client, named by its company on the preview', async () => {
    const { cookie } = await joinAs(testApp.app);
    const hanbit = await add(cookie, {
      firstName: 'Mei Ling',
      lastName: 'Wong',
      company: 'Hanbit Trading Sdn Bhd',
      currency: 'USD',
      balance: 90_000,
    });
    await add(cookie, { firstName: 'Siti', lastName: 'Aminah', currency: 'USD', balance: 90_000 });
    const csv = [
      'Date,Description,Amount,Balance',
      '2026-03-02,IBG HANBIT TRADING SDN BHD,900.00,900.00',
    ];
    const response = await call('POST', '/api/bank/preview', cookie, {
      accountLabel: 'Maybank 4410',
      currency: 'USD',
      mapping: { date: 0, description: 1, amount: 2, balance: 3, dateOrder: 'YMD', decimal: '.' },
      file: Buffer.from(csv.join('\n')).toString('base64'),
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<{
      lines: { suggestions: { clientId: string; reason: string; confidence: string }[] }[];
      clients: { id: string; company?: string }[];
    }>();
    expect(preview.lines[0]?.suggestions[0]).toEqual({
      clientId: hanbit.id,
      reason: 'name',
      confidence: 'high',
      // Its opening balance, which the transfer pays whole (issue 57).
      pays: [expect.objectContaining({ openAmount: 90_000 })],
    });
    expect(preview.clients.find((client) => client.id === hanbit.id)?.company).toBe(
      'Hanbit Trading Sdn Bhd',
    );
  });
});
