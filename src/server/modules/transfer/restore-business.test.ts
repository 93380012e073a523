import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import { exportVersion, type RestoreSummary } from '../../../shared/schemas/restore.ts';

// Export version 6 carries a business client's company, address, tax id and notes; a version-5
// file (made before) restores its clients as people, each of those fields empty.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const business = {
  company: 'Hanbit Trading Sdn Bhd',
  addressLine1: 'Lot 5, Jalan Ampang',
  addressLine2: 'Level 12',
  city: 'Kuala Lumpur',
  postcode: '50450',
  country: 'Malaysia',
  taxId: 'C2584563202',
  notes: 'Call Mei Ling first.\nPays by cheque.',
};
const businessFields = Object.keys(business);

interface ExportFile {
  version: number;
  clients: (Client & Record<string, unknown>)[];
  [key: string]: unknown;
}

const restore = (cookie: string, file: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/restore',
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(file),
  });

async function exportOf(cookie: string): Promise<ExportFile> {
  return (await injectOk(testApp.app, 'GET', '/api/export.json', cookie)).json<ExportFile>();
}

async function clientsOf(cookie: string): Promise<Client[]> {
  return (await injectOk(testApp.app, 'GET', '/api/clients?sort=name', cookie)).json<ClientList>()
    .clients;
}

describe('export version 6 on', () => {
  it('carries the business fields there and back', async () => {
    const owner = await joinAs(testApp.app);
    await injectOk(
      testApp.app,
      'POST',
      '/api/clients',
      owner.cookie,
      buildClient({ firstName: 'Mei Ling', lastName: 'Wong', ...business }),
    );
    await injectOk(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient());
    const file = await exportOf(owner.cookie);
    expect(file.version).toBe(exportVersion);
    expect(file.clients.find((client) => client.company !== '')).toMatchObject(business);

    const target = await joinAs(testApp.app);
    const done = await restore(target.cookie, file);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<RestoreSummary>()).toMatchObject({ version: exportVersion, clients: 2 });
    const restored = await clientsOf(target.cookie);
    expect(restored.find((client) => client.company !== '')).toMatchObject({
      firstName: 'Mei Ling',
      ...business,
    });
    expect(restored.find((client) => client.company === '')).toMatchObject({
      notes: '',
      taxId: '',
    });
  });

  it('refuses a business field too long or with control characters, naming it', async () => {
    const owner = await joinAs(testApp.app);
    await injectOk(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient(business));
    const file = await exportOf(owner.cookie);
    const [client] = file.clients;
    const target = await joinAs(testApp.app);
    const bad = await restore(target.cookie, {
      ...file,
      clients: [{ ...client, notes: 'n'.repeat(2001), company: 'Acme\u0007' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: Record<string, string> } }>().error.fields).toMatchObject({
      'clients[0].notes': 'Use at most 2000 characters.',
      'clients[0].company': 'Remove the control characters.',
    });
    expect(await clientsOf(target.cookie)).toEqual([]);
  });
});

describe('a version-5 file', () => {
  it('restores its clients as people: every business field empty', async () => {
    const owner = await joinAs(testApp.app);
    await injectOk(
      testApp.app,
      'POST',
      '/api/clients',
      owner.cookie,
      buildClient({ firstName: 'Ada', lastName: 'Lovelace' }),
    );
    const file = await exportOf(owner.cookie);
    // As Balance wrote it before version 6: no business field on any client.
    const v5 = {
      ...file,
      version: 5,
      clients: file.clients.map((client) =>
        Object.fromEntries(
          Object.entries(client).filter(([field]) => !businessFields.includes(field)),
        ),
      ),
    };
    expect(JSON.stringify(v5.clients)).not.toContain('company');
    const target = await joinAs(testApp.app);
    const done = await restore(target.cookie, v5);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<RestoreSummary>()).toMatchObject({ version: 5, clients: 1 });
    const [restored] = await clientsOf(target.cookie);
    expect(restored).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
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
});
