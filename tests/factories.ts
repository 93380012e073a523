import type { Insertable } from 'kysely';
import type { EventsTable } from '../src/server/modules/events/events.table.ts';
import type { ClientInput } from '../src/shared/schemas/clients.ts';
import type { EventAction } from '../src/shared/schemas/events.ts';

let counter = 0;

/** A valid client body; override any field. */
export function buildClient(overrides: Partial<ClientInput> = {}): ClientInput {
  counter += 1;
  return {
    firstName: 'Ada',
    lastName: `Lovelace${counter}`,
    email: `ada.${counter}@example.com`,
    phone: '+44 20 7946 0018',
    balance: 12_345,
    currency: 'USD',
    ...overrides,
  };
}

/** The smallest whole export file ("Download all my data"): one client, no ledger, no history. */
export function buildExportFile(client: Partial<ClientInput> & { id?: string } = {}) {
  const { balance: _balance, ...fields } = buildClient(client);
  counter += 1;
  return {
    format: 'balance-export',
    version: 2,
    exportedAt: '2026-11-01T10:00:00.000Z',
    account: { email: 'someone@example.com' },
    settings: {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
    },
    clients: [
      {
        id: `restored${counter}`,
        ...fields,
        balance: 0,
        version: 1,
        createdAt: '2026-10-01T10:00:00.000Z',
        updatedAt: '2026-10-01T10:00:00.000Z',
      },
    ],
    entries: [],
    history: [],
  };
}

/** A row of the owner's log with no snapshots, for a test that writes the log by hand. */
export function buildEventRow(
  bookId: string,
  clientId: string | null,
  action: EventAction,
  overrides: Partial<Insertable<EventsTable>> = {},
): Insertable<EventsTable> {
  return {
    book_id: bookId,
    client_id: clientId,
    action,
    at: Date.now(),
    version: 1,
    before: null,
    after: null,
    detail: null,
    ...overrides,
  };
}
