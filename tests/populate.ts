import type { FastifyInstance } from 'fastify';
import type { Client } from '../src/shared/schemas/clients.ts';
import type { RecordedEntry } from '../src/shared/schemas/ledger.ts';
import { buildClient } from './factories.ts';
import { injectOk } from './http.ts';

/**
 * Gives an owner a bit of everything through the real routes: clients in several currencies,
 * an opening balance as of an earlier day, charges with due dates and references, payments, a credit, a void, a currency change, a balance set by hand,
 * a deleted client (whose history stays) and settings with exchange rates.
 */
export async function fillAccount(app: FastifyInstance, cookie: string): Promise<Client[]> {
  const add = async (overrides: Parameters<typeof buildClient>[0]) =>
    (await injectOk(app, 'POST', '/api/clients', cookie, buildClient(overrides))).json<Client>();
  const entry = async (id: string, body: object) =>
    (await injectOk(app, 'POST', `/api/clients/${id}/entries`, cookie, body)).json<RecordedEntry>();

  const ada = await add({
    firstName: 'Ada',
    balance: 120_00,
    currency: 'USD',
    openingDate: '2025-12-01',
    openingDueDate: '2025-12-31',
    openingReference: 'B/F 2025',
  });
  const min = await add({ firstName: 'Min', balance: 3_000_000, currency: 'KRW' });
  const siti = await add({ firstName: 'Siti', balance: 0, currency: 'MYR' });
  const gone = await add({ firstName: 'Gone', balance: 5_00, currency: 'CAD' });

  const charge = await entry(ada.id, {
    kind: 'charge',
    amount: 40_00,
    date: '2026-01-10',
    dueDate: '2026-02-10',
    note: 'January work',
    reference: 'INV-0001',
  });
  await entry(ada.id, {
    kind: 'payment',
    amount: 60_00,
    date: '2026-01-20',
    note: 'Cheque',
    method: 'cheque',
  });
  await injectOk(
    app,
    'POST',
    `/api/clients/${ada.id}/entries/${charge.entry.entryId}/void`,
    cookie,
    {
      reason: 'Billed twice',
    },
  );
  await entry(min.id, { kind: 'credit', amount: 500_000 });
  await entry(siti.id, { kind: 'charge', amount: 99_99, note: 'Ünïcode ✓ "quoted"' });
  const current = (await injectOk(app, 'GET', `/api/clients/${min.id}`, cookie)).json<Client>();
  await injectOk(app, 'PATCH', `/api/clients/${min.id}/balance`, cookie, {
    balance: 2_000_000,
    previousBalance: current.balance,
  });
  // A currency change while the ledger holds only an opening balance.
  const before = (await injectOk(app, 'GET', `/api/clients/${gone.id}`, cookie)).json<Client>();
  await injectOk(app, 'PUT', `/api/clients/${gone.id}`, cookie, {
    ...buildClient({ firstName: 'Gone', balance: 7_00, currency: 'USD' }),
    email: before.email,
    version: before.version,
  });
  await injectOk(app, 'DELETE', `/api/clients/${gone.id}`, cookie);
  await injectOk(app, 'PUT', '/api/settings', cookie, {
    preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: true },
    rates: [
      { currency: 'KRW', usdPerUnit: '0.00074', date: '2026-03-01' },
      { currency: 'MYR', usdPerUnit: '0.21', date: '2026-03-02' },
    ],
    business: {
      name: 'Lovelace & 김 Trading',
      address: '1 Analytical Way\nLondon',
      taxId: 'GB 123 4567 89',
    },
  });
  return [ada, min, siti];
}
