import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { buildClient, buildExportFile } from '../../../../tests/factories.ts';
import { utcDay } from '../../../shared/dates.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { RecordedEntry } from '../../../shared/schemas/ledger.ts';
import type { Activity } from '../../../shared/schemas/members.ts';
import { sessionCookieName } from '../auth/session.ts';

// Issue 59: an owner closes the books up to a day; every write dated on or before it is refused
// with 409 naming the day, on every path, and nothing of the closed period changes.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const lockDate = '2026-03-31';
const closedDay = '2026-03-15';
const openDay = '2026-04-10';

async function call(cookie: string, method: string, url: string, payload?: object) {
  return testApp.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie },
    ...(payload ? { payload } : {}),
  });
}

function expectClosed(response: { statusCode: number; body: string }, day = lockDate) {
  expect(response.statusCode, response.body).toBe(409);
  const { error } = JSON.parse(response.body) as { error: { code: string; message: string } };
  expect(error.code).toBe('period_closed');
  expect(error.message).toContain(day);
}

/** An owner whose client had a charge and a payment in March, before the books closed. */
async function closedBook() {
  const owner = await joinAs(testApp.app);
  const client = (
    await call(owner.cookie, 'POST', '/api/clients', buildClient({ balance: 0 }))
  ).json<Client>();
  const record = async (body: object) => {
    const response = await call(owner.cookie, 'POST', `/api/clients/${client.id}/entries`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<RecordedEntry>().entry.entryId;
  };
  const charge = await record({ kind: 'charge', amount: 10_000, date: '2026-03-01' });
  const payment = await record({ kind: 'payment', amount: 4_000, date: closedDay });
  const closed = await call(owner.cookie, 'PUT', '/api/book/lock-date', { lockDate });
  expect(closed.statusCode, closed.body).toBe(200);
  return { owner, client, charge, payment, record };
}

async function march(cookie: string, clientId: string) {
  const statement = await call(
    cookie,
    'GET',
    `/api/clients/${clientId}/statement?from=2026-03-01&to=${lockDate}`,
  );
  expect(statement.statusCode, statement.body).toBe(200);
  return statement.body;
}

describe('a closed period', () => {
  it('is set and read by an owner only, and shown in the activity as theirs', async () => {
    const { owner } = await closedBook();
    const read = await call(owner.cookie, 'GET', '/api/book/lock-date');
    expect(read.json()).toEqual({ lockDate });
    const activity = (await call(owner.cookie, 'GET', '/api/book/activity')).json<Activity>();
    expect(activity.events[0]).toMatchObject({
      action: 'lock_date_set',
      by: owner.email,
      closing: { lockDate, previous: null },
    });

    const email = uniqueEmail('bookkeeper');
    const invited = await call(owner.cookie, 'POST', '/api/book/invitations', {
      email,
      role: 'bookkeeper',
    });
    const token = invited.json<{ path: string }>().path.split('/').at(-1);
    const accepted = await testApp.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      payload: { password: strongPassword },
    });
    const cookie = `${sessionCookieName}=${accepted.cookies.find((c) => c.name === sessionCookieName)?.value}`;
    const refused = await call(cookie, 'PUT', '/api/book/lock-date', { lockDate: '2026-12-31' });
    expect(refused.statusCode).toBe(403);
  });

  it('refuses an entry, a void, an opening moved, a balance set and a client deleted in it', async () => {
    const { owner, client, payment, record } = await closedBook();
    const before = await march(owner.cookie, client.id);

    expectClosed(
      await call(owner.cookie, 'POST', `/api/clients/${client.id}/entries`, {
        kind: 'payment',
        amount: 100,
        date: closedDay,
      }),
    );
    expectClosed(
      await call(owner.cookie, 'POST', `/api/clients/${client.id}/entries/${payment}/void`, {
        reason: 'typed twice',
      }),
    );
    expectClosed(await call(owner.cookie, 'DELETE', `/api/clients/${client.id}`));
    // In the open period all is as before.
    await record({ kind: 'payment', amount: 100, date: openDay });

    // A client whose opening balance is dated in the closed period cannot be added, nor an
    // opening moved into it.
    expectClosed(
      await call(
        owner.cookie,
        'POST',
        '/api/clients',
        buildClient({ balance: 500, openingDate: closedDay }),
      ),
    );
    const later = (
      await call(owner.cookie, 'POST', '/api/clients', buildClient({ balance: 500 }))
    ).json<Client>();
    expectClosed(
      await call(owner.cookie, 'PUT', `/api/clients/${later.id}`, {
        ...buildClient({ balance: 500 }),
        version: later.version,
        openingDate: closedDay,
      }),
    );

    // Closed up to today, the pencil's adjustment (dated today) is refused too.
    const today = utcDay();
    await call(owner.cookie, 'PUT', '/api/book/lock-date', { lockDate: today });
    expectClosed(
      await call(owner.cookie, 'PATCH', `/api/clients/${later.id}/balance`, {
        balance: 900,
        previousBalance: 500,
      }),
      today,
    );
    expect(await march(owner.cookie, client.id)).toBe(before);
  });

  it('refuses an import, a bank line and a bank undo dated in it', async () => {
    const { owner, client } = await closedBook();
    expectClosed(
      await call(owner.cookie, 'POST', '/api/clients/import', {
        rows: [{ ...buildClient({ balance: 700 }), openingDate: closedDay }],
        dryRun: false,
        skipDuplicates: false,
      }),
    );
    const line = (date: string) => ({
      accountLabel: 'Closing bank',
      currency: client.currency,
      lines: [
        {
          line: 2,
          date,
          amount: 100,
          description: 'PAYER',
          reference: '',
          balance: null,
          allocations: [{ clientId: client.id, amount: 100 }],
        },
      ],
    });
    expectClosed(await call(owner.cookie, 'POST', '/api/bank/confirm', line(closedDay)));

    // A batch confirmed before the books closed cannot be undone after.
    await call(owner.cookie, 'PUT', '/api/book/lock-date', { lockDate: null });
    const confirmed = await call(owner.cookie, 'POST', '/api/bank/confirm', line(closedDay));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { batchId } = confirmed.json<{ batchId: string }>();
    await call(owner.cookie, 'PUT', '/api/book/lock-date', { lockDate });
    expectClosed(await call(owner.cookie, 'POST', `/api/bank/batches/${batchId}/undo`));
  });

  it('refuses a restore that would write entries dated in it, naming them', async () => {
    const owner = await joinAs(testApp.app);
    await call(owner.cookie, 'PUT', '/api/book/lock-date', { lockDate });
    const file = buildExportFile();
    const clientId = file.clients[0]?.id ?? '';
    const restored = await call(owner.cookie, 'POST', '/api/restore', {
      ...file,
      clients: file.clients.map((client) => ({ ...client, balance: 3_000 })),
      entries: [
        {
          id: 41,
          clientId,
          kind: 'charge',
          amount: 3_000,
          currency: file.clients[0]?.currency,
          date: closedDay,
          dueDate: null,
          note: '',
          voidOf: null,
          enteredAt: '2026-03-15T10:00:00.000Z',
        },
      ],
    });
    expectClosed(restored);
    expect(restored.json<{ error: { message: string } }>().error.message).toContain(
      `41 (${closedDay})`,
    );
  });

  it('keeps every figure of the closed period whatever is written after', async () => {
    const { owner, client } = await closedBook();
    const before = await march(owner.cookie, client.id);
    const write = fc.oneof(
      fc.record({
        kind: fc.constantFrom('charge', 'payment', 'credit'),
        amount: fc.integer({ min: 1, max: 50_000 }),
        date: fc.constantFrom('2026-02-01', closedDay, lockDate, '2026-04-01', openDay),
      }),
      fc.constant({ kind: 'void-last' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
        for (const next of writes) {
          if (next.kind === 'void-last') {
            const entries = (
              await call(owner.cookie, 'GET', `/api/clients/${client.id}/entries`)
            ).json<{ entries: { entryId: number; voided: boolean; kind: string }[] }>().entries;
            const target = entries.find((entry) => entry.kind !== 'void' && !entry.voided);
            if (target) {
              await call(
                owner.cookie,
                'POST',
                `/api/clients/${client.id}/entries/${target.entryId}/void`,
                { reason: 'property' },
              );
            }
          } else {
            await call(owner.cookie, 'POST', `/api/clients/${client.id}/entries`, next);
          }
        }
        expect(await march(owner.cookie, client.id)).toBe(before);
      }),
      { numRuns: 8 },
    );
  });
});

describe('a correction of a closed period', () => {
  type Listed = { id: number; corrects: number | null; correctedBy: number | null };
  const ledger = async (cookie: string, clientId: string) => {
    const response = await call(cookie, 'GET', `/api/clients/${clientId}/entries`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ entries: Listed[] }>().entries;
  };

  it('keeps its entry from a void until the correction itself is voided', async () => {
    const { owner, client, charge, record } = await closedBook();
    const correction = await record({ kind: 'credit', amount: 10_000, corrects: charge });
    await call(owner.cookie, 'PUT', '/api/book/lock-date', { lockDate: null });

    // Corrected once, a void would take the charge off the balance a second time.
    const voidCharge = () =>
      call(owner.cookie, 'POST', `/api/clients/${client.id}/entries/${charge}/void`, {
        reason: 'wrong client',
      });
    const refused = await voidCharge();
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.body).toContain(`#${correction}`);
    expect((await ledger(owner.cookie, client.id)).find((e) => e.id === charge)?.correctedBy).toBe(
      correction,
    );

    const undone = await call(
      owner.cookie,
      'POST',
      `/api/clients/${client.id}/entries/${correction}/void`,
      { reason: 'corrected the wrong way' },
    );
    expect(undone.statusCode, undone.body).toBe(201);
    expect((await ledger(owner.cookie, client.id)).find((e) => e.id === charge)?.correctedBy).toBe(
      null,
    );
    expect((await voidCharge()).statusCode).toBe(201);
  });

  it('comes back from an export linked to the entry it corrects', async () => {
    const { owner, charge, record } = await closedBook();
    const correction = await record({ kind: 'credit', amount: 2_500, corrects: charge });
    const exported = await call(owner.cookie, 'GET', '/api/export.json');
    expect(exported.statusCode).toBe(200);
    const file = exported.json<{ entries: { id: number; corrects?: number }[] }>();
    expect(file.entries.find((entry) => entry.id === correction)?.corrects).toBe(charge);

    const other = await joinAs(testApp.app);
    const restored = await call(other.cookie, 'POST', '/api/restore', file);
    expect(restored.statusCode, restored.body).toBe(200);
    const clients = (await call(other.cookie, 'GET', '/api/clients')).json<{ clients: Client[] }>();
    const entries = await ledger(other.cookie, clients.clients[0]?.id ?? '');
    const restoredCorrection = entries.find((entry) => entry.corrects !== null);
    const restoredCharge = entries.find((entry) => entry.correctedBy !== null);
    expect(restoredCorrection?.corrects).toBe(restoredCharge?.id);
    expect(restoredCharge?.correctedBy).toBe(restoredCorrection?.id);
    expect(restoredCharge?.id).not.toBe(undefined);
  });

  it("refuses a file whose correction names another client's entry", async () => {
    const owner = await joinAs(testApp.app);
    const file = buildExportFile();
    const [first] = file.clients;
    const entry = (id: number, clientId: string, kind: string, amount: number) => ({
      id,
      clientId,
      kind,
      amount,
      currency: first?.currency,
      date: openDay,
      dueDate: null,
      note: '',
      voidOf: null,
      enteredAt: '2026-04-10T10:00:00.000Z',
    });
    const restored = await call(owner.cookie, 'POST', '/api/restore', {
      ...file,
      clients: [
        { ...first, balance: 3_000 },
        { ...first, id: 'another', email: 'another@example.com', balance: -3_000 },
      ],
      entries: [
        entry(1, first?.id ?? '', 'charge', 3_000),
        { ...entry(2, 'another', 'credit', -3_000), corrects: 1 },
      ],
    });
    expect(restored.statusCode, restored.body).toBe(400);
    expect(restored.body).toContain('entries[1].corrects');
  });
});

describe("a book's activity", () => {
  it('lists who did what, newest first, and one person at a time', async () => {
    const { owner, client } = await closedBook();
    const email = uniqueEmail('bookkeeper');
    const invited = await call(owner.cookie, 'POST', '/api/book/invitations', {
      email,
      role: 'bookkeeper',
    });
    const token = invited.json<{ path: string }>().path.split('/').at(-1);
    const accepted = await testApp.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      payload: { password: strongPassword },
    });
    const bookkeeperId = accepted.json<{ user: { id: string } }>().user.id;
    const cookie = `${sessionCookieName}=${accepted.cookies.find((c) => c.name === sessionCookieName)?.value}`;
    await call(cookie, 'POST', `/api/clients/${client.id}/entries`, {
      kind: 'payment',
      amount: 100,
      date: openDay,
    });

    const all = (await call(owner.cookie, 'GET', '/api/book/activity')).json<Activity>();
    expect(all.events.slice(0, 2).map((event) => [event.action, event.by])).toEqual([
      ['entry_recorded', email],
      ['members_changed', email],
    ]);
    const theirs = (
      await call(owner.cookie, 'GET', `/api/book/activity?person=${bookkeeperId}`)
    ).json<Activity>();
    expect(theirs.events.map((event) => event.action)).toEqual([
      'entry_recorded',
      'members_changed',
    ]);
    expect(theirs.nextCursor).toBeNull();
    expect((await call(cookie, 'GET', '/api/book/activity')).statusCode).toBe(403);
  });
});
