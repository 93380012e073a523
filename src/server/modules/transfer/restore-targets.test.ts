import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import type { Entry, RecordedEntry } from '../../../shared/schemas/ledger.ts';
import { exportVersion, type RestoreSummary } from '../../../shared/schemas/restore.ts';

// Export version 7 carries the charges payments name (issue 57, decision 041); a version-6 file,
// made before, restores with its payments settling the oldest charges first.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

interface ExportFile {
  version: number;
  entries: { id: number; kind: string }[];
  paymentTargets?: { paymentId: number; chargeId: number; amount: number }[];
  [key: string]: unknown;
}

const restore = (cookie: string, file: unknown) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/restore',
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(file),
  });

/** An owner whose client paid the newer of two charges by naming it. */
async function bookWithTarget() {
  const owner = await joinAs(testApp.app);
  const client = (
    await injectOk(testApp.app, 'POST', '/api/clients', owner.cookie, buildClient({ balance: 0 }))
  ).json<Client>();
  const record = async (body: object) =>
    (
      await injectOk(testApp.app, 'POST', `/api/clients/${client.id}/entries`, owner.cookie, body)
    ).json<RecordedEntry>().entry.entryId;
  const old = await record({
    kind: 'charge',
    amount: 10_000,
    date: '2026-01-05',
    reference: 'A-1',
  });
  const newer = await record({
    kind: 'charge',
    amount: 4_000,
    date: '2026-02-05',
    reference: 'A-2',
  });
  const payment = await record({
    kind: 'payment',
    amount: 4_000,
    date: '2026-03-01',
    pays: [newer],
  });
  const file = (
    await injectOk(testApp.app, 'GET', '/api/export.json', owner.cookie)
  ).json<ExportFile>();
  return { file, old, newer, payment };
}

async function openAfterRestore(file: unknown) {
  const target = await joinAs(testApp.app);
  const done = await restore(target.cookie, file);
  expect(done.statusCode, done.body).toBe(200);
  const [client] = (
    await injectOk(testApp.app, 'GET', '/api/clients', target.cookie)
  ).json<ClientList>().clients;
  const entries = (
    await injectOk(testApp.app, 'GET', `/api/clients/${client?.id}/entries`, target.cookie)
  ).json<{ entries: Entry[] }>().entries;
  return {
    summary: done.json<RestoreSummary>(),
    client,
    open: entries.filter((e) => e.kind === 'charge').map((e) => [e.reference, e.open]),
    pays: entries.find((e) => e.kind === 'payment')?.pays.map((charge) => charge.label),
  };
}

describe('the charges a payment names (export version 7 on)', () => {
  it('carries the charges a payment names there and back', async () => {
    const { file, newer, payment } = await bookWithTarget();
    expect(file.version).toBe(exportVersion);
    expect(file.paymentTargets).toEqual([{ paymentId: payment, chargeId: newer, amount: 4_000 }]);
    const restored = await openAfterRestore(file);
    expect(restored.summary.version).toBe(exportVersion);
    expect(restored.open).toEqual([
      ['A-1', 10_000],
      ['A-2', 0],
    ]);
    expect(restored.pays).toEqual(['A-2']);
    expect(restored.client?.oldestDueDate).toBe('2026-01-05');
  });

  it('restores a version-6 file, whose payments settle the oldest charges first', async () => {
    const { file } = await bookWithTarget();
    const { paymentTargets: _left, ...older } = file;
    const restored = await openAfterRestore({ ...older, version: 6 });
    expect(restored.summary.version).toBe(6);
    expect(restored.open).toEqual([
      ['A-1', 6_000],
      ['A-2', 4_000],
    ]);
    expect(restored.pays).toEqual([]);
  });

  it('refuses a target that names no payment or another client’s charge, naming it', async () => {
    const { file, old, newer, payment } = await bookWithTarget();
    const target = await joinAs(testApp.app);
    const bad = await restore(target.cookie, {
      ...file,
      paymentTargets: [
        { paymentId: old, chargeId: newer, amount: 1 },
        { paymentId: payment, chargeId: 999_999, amount: 1 },
        { paymentId: payment, chargeId: newer, amount: 0 },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      'paymentTargets[2].amount': 'Use 1 or more.',
    });
    const worse = await restore(target.cookie, {
      ...file,
      paymentTargets: [
        { paymentId: old, chargeId: newer, amount: 1 },
        { paymentId: payment, chargeId: 999_999, amount: 1 },
      ],
    });
    expect(worse.statusCode).toBe(400);
    expect(worse.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      'paymentTargets[0].paymentId': 'must name a payment or credit of the file',
      'paymentTargets[1].chargeId': 'must name an amount owed of the file',
    });
    expect(
      (await injectOk(testApp.app, 'GET', '/api/clients', target.cookie)).json<ClientList>()
        .clients,
    ).toEqual([]);
  });
});
