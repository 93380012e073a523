import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { otherDialect } from '../../../../tests/db.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { fillAccount } from '../../../../tests/populate.ts';
import { snapshotDatabase } from '../../../../tests/reliability/database-snapshot.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { bankLayoutKey } from '../../../shared/bank-layout.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import type { DueReminders, ReminderPlan } from '../../../shared/schemas/reminders.ts';
import { exportVersion, type RestoreSummary } from '../../../shared/schemas/restore.ts';
import { createTestDatabase, type TestDatabase } from '../../../../tests/db.ts';

interface ExportFile {
  version: number;
  clients: {
    id: string;
    balance: number;
    updatedAt: string;
    language?: string | null;
    reminders?: boolean;
    [key: string]: unknown;
  }[];
  entries?: { id: number; voidOf: number | null; clientId: string; [key: string]: unknown }[];
  history: {
    id: number;
    action: string;
    clientId: string | null;
    entry?: unknown;
    reminder?: { charges: { entryId: number }[] };
  }[];
  settings: { reminderPlan?: ReminderPlan; [key: string]: unknown };
  bankBatches?: { id: string; accountLabel: string; createdAt: string; undoneAt: string | null }[];
  bankLines?: { lineId: string; batchId: string; createdAt: string }[];
  bankPayerRules?: {
    payerKey: string;
    clientId: string | null;
    updatedAt: string;
    batchId?: string;
    line?: number | null;
    learnedFrom?: string | null;
  }[];
  bankLayouts?: { key: string; mapping: Record<string, unknown>; updatedAt: string }[];
  [key: string]: unknown;
}

const reminderPlan: ReminderPlan = {
  enabled: true,
  daysBefore: null,
  onDueDate: true,
  overdueEveryDays: 30,
  overdueMax: 20,
  attachPdf: false,
  timeZone: 'Asia/Seoul',
};

/** A client's own language, a client's reminders off, the plan, a reminder sent, a main currency. */
async function addReminderData(app: FastifyInstance, cookie: string, [ada, , siti]: Client[]) {
  await injectOk(app, 'PUT', `/api/clients/${ada?.id}/language`, cookie, { language: 'ko' });
  await injectOk(app, 'PUT', `/api/clients/${siti?.id}/reminders`, cookie, { enabled: false });
  await injectOk(app, 'PUT', '/api/reminders/plan', cookie, reminderPlan);
  await injectOk(app, 'PUT', '/api/settings/setup', cookie, {
    outcome: 'done',
    mainCurrency: 'MYR',
  });
  const due = (await injectOk(app, 'GET', '/api/reminders/due-today', cookie)).json<DueReminders>();
  const adas = due.reminders.find((reminder) => reminder.clientId === ada?.id);
  await injectOk(app, 'POST', `/api/reminders/due-today/${ada?.id}/sent`, cookie, {
    charges: adas?.charges.map(({ entryId, step }) => ({ entryId, step })),
  });
}

const maybankLayout = {
  key: bankLayoutKey(['Date', 'Description', 'Amount', 'Balance']),
  mapping: { date: 0, description: 1, amount: 2, balance: 3, dateOrder: 'DMY', decimal: '.' },
};
const cashBoxLayout = {
  key: bankLayoutKey(['Tarikh', 'Keterangan', 'Debit', 'Kredit']),
  mapping: {
    date: 0,
    description: 1,
    debit: 2,
    credit: 3,
    skipRows: 3,
    dateOrder: 'YMD',
    decimal: ',',
    encoding: 'euc-kr',
  },
};

/** Two bank imports of Ada's payments, one of them undone; two payers and two layouts learned. */
async function addBankData(app: FastifyInstance, cookie: string, [ada]: Client[]) {
  const line = (description: string, amount: number, reference: string, balance: number) => ({
    line: 2,
    date: '2026-03-10',
    amount,
    description,
    reference,
    balance,
    allocations: [{ clientId: ada?.id as string, amount }],
  });
  const confirm = (accountLabel: string, lines: object[], layout: object) =>
    injectOk(app, 'POST', '/api/bank/confirm', cookie, {
      accountLabel,
      currency: 'USD',
      lines,
      layout,
    });
  await confirm(
    'Maybank 4410',
    [line('IBG ADA LOVELACE', 1_000, 'FT24061XYZ', 5_000), line('CASH DEPOSIT', 100, '', 5_100)],
    maybankLayout,
  );
  const undone = await confirm('Cash box', [line('TRANSFER 0310', 300, '', 300)], cashBoxLayout);
  await injectOk(
    app,
    'POST',
    `/api/bank/batches/${undone.json<{ batchId: string }>().batchId}/undo`,
    cookie,
  );
}

/**
 * Joins, and opens the app as the web app does: a new session settles on its book at its first
 * request (books/current-book.ts `sessionBook`). That is the sign-in's doing, not the restore's:
 * settled before a snapshot, the snapshot shows what the restore alone changed.
 */
async function joinedAs(app: FastifyInstance) {
  const joined = await joinAs(app);
  await injectOk(app, 'GET', '/api/auth/session', joined.cookie);
  return joined;
}

let source: TestApp;
let owner: { cookie: string; email: string };
let exported: ExportFile;
// A fresh instance on the other kind of database, where the file is restored.
let fresh: FastifyInstance;
let freshDatabase: TestDatabase;

beforeAll(async () => {
  source = await buildTestApp();
  owner = await joinAs(source.app);
  const clients = await fillAccount(source.app, owner.cookie);
  await addReminderData(source.app, owner.cookie, clients);
  await addBankData(source.app, owner.cookie, clients);
  exported = (await injectOk(source.app, 'GET', '/api/export.json', owner.cookie)).json();
  freshDatabase = await createTestDatabase(otherDialect);
  fresh = await buildApp({ config: { ...loadConfig({}), database: freshDatabase.config } });
});
afterAll(async () => {
  await fresh.close();
  await freshDatabase.drop();
  await source.close();
});

const restore = (app: FastifyInstance, cookie: string, file: unknown, dryRun = false) =>
  app.inject({
    method: 'POST',
    url: `/api/restore${dryRun ? '?dryRun=true' : ''}`,
    headers: { cookie, 'content-type': 'application/json' },
    payload: JSON.stringify(file),
  });

/** The export with the instance's own numbering taken out: what must come back unchanged. */
function comparable(file: ExportFile) {
  const entryIndex = new Map((file.entries ?? []).map((entry, index) => [entry.id, index]));
  // An id the file does not hold (a deleted client's entry) is no entry at all.
  const renumber = (id: number | null) => (id === null ? null : (entryIndex.get(id) ?? -1));
  const { reminderPlan: plan, ...settings } = file.settings;
  // A bank import's id is the instance's own: each is known by what it holds.
  const batchKey = new Map(
    (file.bankBatches ?? []).map(({ id, ...batch }) => [id, JSON.stringify(batch)]),
  );
  return {
    bankBatches: [...batchKey.values()].sort(),
    bankLines: (file.bankLines ?? []).map((line) => ({
      ...line,
      batchId: batchKey.get(line.batchId),
    })),
    bankPayerRules: file.bankPayerRules?.map((rule) => ({
      ...rule,
      ...(rule.batchId !== undefined && { batchId: batchKey.get(rule.batchId) }),
    })),
    bankLayouts: file.bankLayouts,
    account: file.account,
    // The plan comes back switched off: each test says so on its own.
    settings: { ...settings, reminderPlan: plan && { ...plan, enabled: undefined } },
    clients: file.clients,
    entries: (file.entries ?? []).map(({ id, voidOf, ...entry }) => ({
      ...entry,
      id: renumber(id),
      voidOf: renumber(voidOf),
    })),
    history: file.history
      .filter((event) => event.action !== 'restored' && event.action !== 'settings_changed')
      .map(({ id: _id, entry, reminder, ...event }) => {
        const detail = entry as { entryId: number; voidOf: number | null } | null;
        return {
          ...event,
          entry: detail && {
            ...detail,
            entryId: renumber(detail.entryId),
            voidOf: renumber(detail.voidOf),
          },
          reminder: reminder && {
            ...reminder,
            charges: reminder.charges.map((charge) => ({
              ...charge,
              entryId: renumber(charge.entryId),
            })),
          },
        };
      }),
  };
}

describe('restoring an export into an account', () => {
  it('brings back clients with their ids, ledgers, history and settings on a fresh instance of the other database', async () => {
    const target = await joinAs(fresh, owner.email);
    // The list is read (and kept) before the restore: the restore's events must refresh it.
    expect(
      (await injectOk(fresh, 'GET', '/api/clients', target.cookie)).json<ClientList>().count,
    ).toBe(0);

    const preview = await restore(fresh, target.cookie, exported, true);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json<RestoreSummary>()).toEqual({
      version: exportVersion,
      exportedAt: exported.exportedAt,
      exportedFrom: owner.email,
      clients: 3,
      entries: exported.entries?.length,
      openingsFromBalances: 0,
      history: exported.history.length,
      rates: 2,
      renumbered: 0,
      remindersTurnedOff: true,
      restored: false,
    });
    expect(
      (await injectOk(fresh, 'GET', '/api/clients', target.cookie)).json<ClientList>().count,
    ).toBe(0);

    const done = await restore(fresh, target.cookie, exported);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<RestoreSummary>()).toMatchObject({ restored: true, clients: 3 });

    const list = (await injectOk(fresh, 'GET', '/api/clients', target.cookie)).json<ClientList>();
    expect(list.count).toBe(3);
    const again: ExportFile = (
      await injectOk(fresh, 'GET', '/api/export.json', target.cookie)
    ).json();
    expect(comparable(again)).toEqual(comparable(exported));
    // What the round trip must carry is there to carry, and comes back.
    expect(
      exported.bankBatches?.map((batch) => [batch.accountLabel, batch.undoneAt !== null]),
    ).toEqual(
      expect.arrayContaining([
        ['Maybank 4410', false],
        ['Cash box', true],
      ]),
    );
    // The undone import's lines were released; its voided payment keeps its line.
    expect(exported.bankLines).toHaveLength(2);
    // The undone import's payer ("transfer") was forgotten with it; each payer says where it was
    // learned, and comes back under the restored import (comparable() above).
    expect(
      exported.bankPayerRules?.map((rule) => [rule.payerKey, rule.line, rule.learnedFrom]),
    ).toEqual([
      ['cash deposit', 2, 'manual'],
      ['ibg ada lovelace', 2, 'manual'],
    ]);
    expect(exported.bankPayerRules?.every((rule) => rule.batchId !== undefined)).toBe(true);
    expect(exported.entries?.filter((entry) => entry.bankLineId !== undefined)).toHaveLength(3);
    // The CSV layouts come back under the new owner, each mapping whole (defaults written out).
    expect(exported.bankLayouts?.map(({ key, mapping }) => ({ key, mapping }))).toEqual(
      expect.arrayContaining([
        {
          key: maybankLayout.key,
          mapping: { ...maybankLayout.mapping, skipRows: 1, encoding: 'utf-8' },
        },
        cashBoxLayout,
      ]),
    );
    expect(exported.bankLayouts).toHaveLength(2);
    const layouts = (await injectOk(fresh, 'GET', '/api/bank/layouts', target.cookie)).json<{
      layouts: { key: string; updatedAt: string }[];
    }>().layouts;
    const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
    expect(layouts.map(({ key, updatedAt }) => ({ key, updatedAt })).sort(byKey)).toEqual(
      (exported.bankLayouts ?? []).map(({ key, updatedAt }) => ({ key, updatedAt })).sort(byKey),
    );
    const ada = exported.clients[0]?.id;
    const adaLedger = (
      await injectOk(fresh, 'GET', `/api/clients/${ada}/entries?limit=500`, target.cookie)
    ).json<{ entries: { reference: string; bank: unknown }[] }>().entries;
    expect(adaLedger.find((entry) => entry.reference === 'FT24061XYZ')?.bank).toEqual({
      account: 'Maybank 4410',
    });
    // Recorded lines stay recorded: the same statement line previewed again is known.
    const known = await injectOk(fresh, 'POST', '/api/bank/preview', target.cookie, {
      accountLabel: 'Maybank 4410',
      currency: 'USD',
      mapping: {
        date: 0,
        description: 1,
        amount: 2,
        reference: 3,
        balance: 4,
        dateOrder: 'YMD',
        decimal: '.',
      },
      file: Buffer.from(
        'Date,Text,Amount,Ref,Balance\n2026-03-10,IBG ADA LOVELACE,10.00,FT24061XYZ,50.00\n',
      ).toString('base64'),
    });
    expect(
      known.json<{ lines: { alreadyRecorded: boolean; suggestions: unknown[] }[] }>().lines[0],
    ).toMatchObject({
      alreadyRecorded: true,
      // The payer restored; not certain, since the amount is paid and owed no more.
      suggestions: [
        {
          clientId: ada,
          reason: 'rule',
          confidence: 'medium',
          learned: { accountLabel: 'Maybank 4410', line: 2, from: 'manual' },
        },
      ],
    });
    expect(exported.clients.map(({ language, reminders }) => [language, reminders])).toEqual([
      ['ko', true],
      [null, true],
      [null, false],
    ]);
    const sent = exported.history.filter((event) => event.action === 'reminder_sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.reminder?.charges.length).toBeGreaterThan(0);
    expect(again.history.filter((event) => event.action === 'reminder_sent')).toHaveLength(1);
    // Which reminders were sent is not in the file: on, the plan would send them again.
    expect(exported.settings.reminderPlan).toEqual(reminderPlan);
    expect(again.settings.reminderPlan).toEqual({ ...reminderPlan, enabled: false });
    expect((await injectOk(fresh, 'GET', '/api/reminders/plan', target.cookie)).json()).toEqual({
      ...reminderPlan,
      enabled: false,
    });
    const siti = exported.clients[2]?.id;
    expect(
      (await injectOk(fresh, 'GET', `/api/clients/${siti}/reminders`, target.cookie)).json(),
    ).toEqual({ enabled: false });
    // The main currency and the first-run setup: an account with clients is never sent there.
    expect(exported.settings.business).toMatchObject({ mainCurrency: 'MYR' });
    expect(
      (await injectOk(fresh, 'GET', '/api/auth/session', target.cookie)).json<{
        firstRun: unknown;
      }>().firstRun,
    ).toEqual({ mainCurrency: 'MYR', setupNeeded: false });
    // One `restored` event per client, after the history the file carried.
    const restoredEvents = again.history.filter((event) => event.action === 'restored');
    expect(restoredEvents.map((event) => event.clientId).sort()).toEqual(
      exported.clients.map((client) => client.id).sort(),
    );
    expect(again.history.slice(-4).map((event) => event.action)).toEqual([
      'restored',
      'restored',
      'restored',
      'settings_changed',
    ]);
    expect(exported.settings).toMatchObject({
      business: {
        name: 'Lovelace & 김 Trading',
        address: '1 Analytical Way\nLondon',
        // Version 6 on.
        taxId: 'GB 123 4567 89',
      },
    });
    const settings = await injectOk(fresh, 'GET', '/api/settings', target.cookie);
    // The plan is restored switched off, and the lock date is the book's, not a setting's.
    const { reminderPlan: _plan, lockDate: _lockDate, ...ownSettings } = exported.settings;
    expect(settings.json()).toMatchObject(ownSettings);

    // The same file again doubles nothing: it is refused, and nothing changes.
    const before = await snapshotDatabase(fresh);
    const twice = await restore(fresh, target.cookie, exported);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({
      error: {
        code: 'conflict',
        message: expect.stringContaining('already has clients') as string,
      },
    });
    expect((await restore(fresh, target.cookie, exported, true)).statusCode).toBe(409);
    expect(await snapshotDatabase(fresh)).toEqual(before);
  });

  it('gives clients new ids where another account has theirs, and keeps the ledger and history linked', async () => {
    const target = await joinAs(source.app);
    const preview = (
      await restore(source.app, target.cookie, exported, true)
    ).json<RestoreSummary>();
    expect(preview.renumbered).toBe(3);
    expect((await restore(source.app, target.cookie, exported)).statusCode).toBe(200);
    const again: ExportFile = (
      await injectOk(source.app, 'GET', '/api/export.json', target.cookie)
    ).json();
    const oldIds = new Set(exported.clients.map((client) => client.id));
    expect(again.clients.some((client) => oldIds.has(client.id))).toBe(false);
    const newIds = new Set(again.clients.map((client) => client.id));
    expect(again.entries?.every((entry) => newIds.has(entry.clientId))).toBe(true);
    // The language and the switch follow each client to their new id; so do a reminder's charges.
    expect(again.clients.map(({ language, reminders }) => [language, reminders])).toEqual(
      exported.clients.map(({ language, reminders }) => [language, reminders]),
    );
    const newEntryIds = new Set(again.entries?.map((entry) => entry.id));
    const charges = again.history.flatMap((event) => event.reminder?.charges ?? []);
    expect(charges.length).toBeGreaterThan(0);
    expect(charges.every((charge) => newEntryIds.has(charge.entryId))).toBe(true);
    const ada = again.clients[0];
    const history = (
      await injectOk(source.app, 'GET', `/api/clients/${ada?.id}/history`, target.cookie)
    ).json<{ entries: { action: string }[] }>();
    expect(history.entries.map((event) => event.action)).toEqual([
      'restored',
      // The bank imports: three payments, one voided by its import's undo.
      'entry_voided',
      'entry_recorded',
      'entry_recorded',
      'entry_recorded',
      'reminder_sent',
      'language_set',
      'entry_voided',
      'entry_recorded',
      'entry_recorded',
      'created',
    ]);
    // What is still unpaid, and since when, comes back as it was.
    const ageingOf = async (cookie: string) =>
      (await injectOk(source.app, 'GET', '/api/ageing', cookie)).json<unknown>();
    expect(await ageingOf(target.cookie)).toEqual(await ageingOf(owner.cookie));
    const dueDays = (file: ExportFile) =>
      file.clients.map((client) => (client as { oldestDueDate?: unknown }).oldestDueDate);
    expect(dueDays(again)).toEqual(dueDays(exported));
    expect(dueDays(exported).some((day) => typeof day === 'string')).toBe(true);
    // The owner of the original ids still has theirs, untouched.
    const theirs = (
      await injectOk(source.app, 'GET', '/api/clients', owner.cookie)
    ).json<ClientList>();
    expect(theirs.clients.map((client) => client.id).sort()).toEqual([...oldIds].sort());
  });

  it('lets only one of two restores sent at once into the same account through', async () => {
    // Where the ids are taken (new ones for both) and on a new instance (both want the same).
    const database = await createTestDatabase(otherDialect);
    const empty = await buildApp({ config: { ...loadConfig({}), database: database.config } });
    try {
      for (const app of [source.app, empty]) {
        const target = await joinAs(app);
        const answers = await Promise.all([
          restore(app, target.cookie, exported),
          restore(app, target.cookie, exported),
        ]);
        expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
        const list = (await injectOk(app, 'GET', '/api/clients', target.cookie)).json<ClientList>();
        expect(list.count).toBe(3);
      }
    } finally {
      await empty.close();
      await database.drop();
    }
  });

  it('reads a version-1 file: each balance becomes an opening entry on the day it was last set', async () => {
    const target = await joinAs(source.app);
    const { entries: _entries, ...rest } = exported;
    const v1 = {
      ...rest,
      version: 1,
      history: exported.history.map(({ entry: _entry, ...event }) => event),
    };
    const preview = (await restore(source.app, target.cookie, v1, true)).json<RestoreSummary>();
    expect(preview).toMatchObject({ version: 1, entries: 3, openingsFromBalances: 3 });
    expect((await restore(source.app, target.cookie, v1)).statusCode).toBe(200);
    const list = (
      await injectOk(source.app, 'GET', '/api/clients', target.cookie)
    ).json<ClientList>();
    for (const client of list.clients) {
      const original = exported.clients.find((candidate) => candidate.balance === client.balance);
      const ledger = (
        await injectOk(source.app, 'GET', `/api/clients/${client.id}/entries`, target.cookie)
      ).json<{ entries: { kind: string; amount: number; date: string }[] }>();
      expect(ledger.entries).toEqual([
        expect.objectContaining({
          kind: 'opening',
          amount: client.balance,
          date: original?.updatedAt.slice(0, 10),
        }),
      ]);
    }
  });

  it('keeps references and opening dates, and reads a version-2 file, which has no references', async () => {
    const entries = exported.entries ?? [];
    expect(entries).toContainEqual(
      expect.objectContaining({
        kind: 'opening',
        date: '2025-12-01',
        dueDate: '2025-12-31',
        reference: 'B/F 2025',
      }),
    );
    expect(entries).toContainEqual(
      expect.objectContaining({ kind: 'charge', reference: 'INV-0001' }),
    );
    const target = await joinAs(source.app);
    const v2 = {
      ...exported,
      version: 2,
      entries: entries.map(({ reference: _reference, ...entry }) => entry),
    };
    expect((await restore(source.app, target.cookie, v2)).statusCode).toBe(200);
    const again: ExportFile = (
      await injectOk(source.app, 'GET', '/api/export.json', target.cookie)
    ).json();
    expect(again.version).toBe(exportVersion);
    expect(new Set(again.entries?.map((entry) => entry.reference))).toEqual(new Set(['']));
    // Everything else as it was (the clients' ids are renumbered: they are taken here).
    const kept = (entry: Record<string, unknown>) =>
      [entry.kind, entry.amount, entry.date, entry.dueDate, entry.note].join(' ');
    expect(again.entries?.map(kept)).toEqual(entries.map(kept));
  });

  it('reads a version-4 file, which has no bank imports, and refuses a bank line of no import', async () => {
    const target = await joinAs(fresh);
    const {
      bankBatches: _batches,
      bankLines: _lines,
      bankPayerRules: _rules,
      bankLayouts: _layouts,
      ...file
    } = exported;
    const v4 = {
      ...file,
      version: 4,
      entries: exported.entries?.map(({ bankLineId: _line, method: _method, ...entry }) => entry),
    };
    expect((await restore(fresh, target.cookie, v4)).statusCode).toBe(200);
    const again: ExportFile = (
      await injectOk(fresh, 'GET', '/api/export.json', target.cookie)
    ).json();
    expect([again.bankBatches, again.bankLines, again.bankPayerRules, again.bankLayouts]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect(again.entries?.filter((entry) => 'bankLineId' in entry)).toEqual([]);
    expect(again.entries).toHaveLength(exported.entries?.length ?? -1);

    const other = await joinAs(fresh);
    const bad = await restore(fresh, other.cookie, {
      ...exported,
      bankLines: [{ lineId: 'x', batchId: 'nowhere', createdAt: '2026-03-10T00:00:00.000Z' }],
      bankPayerRules: [
        { payerKey: 'x', clientId: 'nobody', updatedAt: '2026-03-10T00:00:00.000Z' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      'bankLines[0].batchId': 'no bank import nowhere in the file',
      'bankPayerRules[0].clientId': 'no client nobody in the file',
    });

    // A layout whose mapping does not read, or a layout twice, refuses the file naming it.
    const [first, second] = exported.bankLayouts ?? [];
    const badMapping = await restore(fresh, other.cookie, {
      ...exported,
      bankLayouts: [first, { ...second, mapping: { ...second?.mapping, dateOrder: 'DYM' } }],
    });
    expect(badMapping.statusCode).toBe(400);
    expect(badMapping.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      'bankLayouts[1].mapping.dateOrder': 'Choose YMD, DMY or MDY.',
    });
    const twice = await restore(fresh, other.cookie, {
      ...exported,
      bankLayouts: [first, first],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      'bankLayouts[1].key': 'appears twice in the file',
    });
  });

  it("reads a version-5 file, whose payments have no method: a bank statement's come back as transfers", async () => {
    // Version 6 on, each payment carries its method: the cheque and the bank imports' transfers.
    const methods = (file: ExportFile) =>
      (file.entries ?? [])
        .filter((entry) => entry.kind === 'payment')
        .map((entry) => [entry.bankLineId !== undefined, entry.method]);
    expect(methods(exported)).toEqual([
      [false, 'cheque'],
      [true, 'bank_transfer'],
      [true, 'bank_transfer'],
      [true, 'bank_transfer'],
    ]);
    expect(
      exported.entries?.filter((entry) => entry.kind !== 'payment' && 'method' in entry),
    ).toEqual([]);
    const target = await joinAs(fresh);
    const v5 = {
      ...exported,
      version: 5,
      entries: exported.entries?.map(({ method: _method, ...entry }) => entry),
    };
    expect((await restore(fresh, target.cookie, v5)).statusCode).toBe(200);
    const again: ExportFile = (
      await injectOk(fresh, 'GET', '/api/export.json', target.cookie)
    ).json();
    // The cheque was never said in version 5: it comes back "not recorded" (null).
    expect(methods(again)).toEqual([
      [false, null],
      [true, 'bank_transfer'],
      [true, 'bank_transfer'],
      [true, 'bank_transfer'],
    ]);

    // A method the file does not know, or one on an entry that is no payment, refuses it.
    const other = await joinAs(fresh);
    const fieldsOf = async (change: (entry: { [key: string]: unknown }) => object) => {
      const bad = await restore(fresh, other.cookie, {
        ...exported,
        entries: exported.entries?.map((entry) => ({ ...entry, ...change(entry) })),
      });
      expect(bad.statusCode).toBe(400);
      return Object.values(bad.json<{ error: { fields: Record<string, string> } }>().error.fields);
    };
    expect(
      new Set(await fieldsOf((entry) => (entry.kind === 'payment' ? { method: 'barter' } : {}))),
    ).toEqual(new Set(['Use one of cash, bank_transfer, card, cheque, other.']));
    expect(
      new Set(await fieldsOf((entry) => (entry.kind === 'opening' ? { method: 'cash' } : {}))),
    ).toEqual(new Set(['Only a payment has a method.']));
  });

  it("reads a version-3 file as before: every client in the owner's language, reminders on, no plan", async () => {
    const target = await joinAs(fresh);
    const { reminderPlan: _plan, ...settings } = exported.settings;
    const v3 = {
      ...exported,
      version: 3,
      settings,
      clients: exported.clients.map(
        ({ language: _language, reminders: _reminders, ...client }) => client,
      ),
    };
    const preview = (await restore(fresh, target.cookie, v3, true)).json<RestoreSummary>();
    expect(preview).toMatchObject({ version: 3, remindersTurnedOff: false, clients: 3 });
    expect((await restore(fresh, target.cookie, v3)).statusCode).toBe(200);
    const again: ExportFile = (
      await injectOk(fresh, 'GET', '/api/export.json', target.cookie)
    ).json();
    expect(again.clients.map(({ language, reminders }) => [language, reminders])).toEqual([
      [null, true],
      [null, true],
      [null, true],
    ]);
    const plan = (
      await injectOk(fresh, 'GET', '/api/reminders/plan', target.cookie)
    ).json<ReminderPlan>();
    expect(plan).toMatchObject({ enabled: false, daysBefore: 3, overdueEveryDays: 7 });
    // A version-3 file made since reminders exist carries what each one sent.
    expect(again.history.filter((event) => event.reminder)).toHaveLength(1);
  });

  it("refuses a client's language or reminders switch it does not know, naming each", async () => {
    const target = await joinedAs(source.app);
    const before = await snapshotDatabase(source.app);
    const [first, ...others] = exported.clients;
    const refused = await restore(source.app, target.cookie, {
      ...exported,
      clients: [{ ...first, language: 'fr', reminders: 'yes' }, ...others],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'validation',
        message: expect.stringMatching(
          /^This file cannot be restored: clients\[0\]\.language: Choose en, ko or ms/,
        ) as string,
        fields: {
          'clients[0].language': "Choose en, ko or ms, or null for the owner's language.",
          'clients[0].reminders': 'Use true or false.',
        },
      },
    });
    expect(await snapshotDatabase(source.app)).toEqual(before);
  });

  it('restores a void that the export lists before the entry it reverses', async () => {
    // An entry may be dated tomorrow (the browser's day can be ahead of the server's); voided
    // today, its void is listed first, since an export lists a client's entries by day.
    const someone = await joinAs(source.app);
    const send = (url: string, body: object) =>
      source.app.inject({
        method: 'POST',
        url,
        headers: { cookie: someone.cookie },
        payload: body,
      });
    const client = (await send('/api/clients', buildClient({ balance: 0 }))).json<{ id: string }>();
    const tomorrow = addDays(utcDay(), 1);
    const charged = await send(`/api/clients/${client.id}/entries`, {
      kind: 'charge',
      amount: 1_500,
      date: tomorrow,
    });
    const chargeId = charged.json<{ entry: { entryId: number } }>().entry.entryId;
    expect(
      (await send(`/api/clients/${client.id}/entries/${chargeId}/void`, { reason: 'typo' }))
        .statusCode,
    ).toBe(201);
    const file: ExportFile = (
      await injectOk(source.app, 'GET', '/api/export.json', someone.cookie)
    ).json();
    expect(file.entries?.map((entry) => entry.voidOf)).toEqual([chargeId, null]);

    const target = await joinAs(source.app);
    expect((await restore(source.app, target.cookie, file)).statusCode).toBe(200);
    const [restored] = (
      await injectOk(source.app, 'GET', '/api/clients', target.cookie)
    ).json<ClientList>().clients;
    const { entries } = (
      await injectOk(source.app, 'GET', `/api/clients/${restored?.id}/entries`, target.cookie)
    ).json<{ entries: { id: number; kind: string; date: string; voidedBy: number | null }[] }>();
    const charge = entries.find((entry) => entry.kind === 'charge');
    const reversal = entries.find((entry) => entry.kind === 'void');
    expect(charge).toMatchObject({ date: tomorrow, voidedBy: reversal?.id });
    expect(restored?.balance).toBe(0);
  });

  it('refuses a void of a void, naming it', async () => {
    const target = await joinAs(source.app);
    const voids = (exported.entries ?? []).filter((entry) => entry.voidOf !== null);
    const [reversal] = voids;
    expect(reversal).toBeDefined();
    const reversed = {
      ...reversal,
      id: 999_999,
      voidOf: reversal?.id ?? null,
      amount: -((reversal as { amount?: number } | undefined)?.amount ?? 0),
    };
    const refused = await restore(source.app, target.cookie, {
      ...exported,
      entries: [...(exported.entries ?? []), reversed],
    });
    expect(refused.statusCode).toBe(400);
    // Its client's balance no longer adds up either, and is named too.
    expect(
      refused.json<{ error: { fields: Record<string, string> } }>().error.fields,
    ).toMatchObject({
      [`entries[${exported.entries?.length}].voidOf`]: 'a void cannot be voided',
    });
  });

  it('refuses entries whose sign contradicts their kind, naming each, and changes nothing', async () => {
    const target = await joinedAs(source.app);
    const before = await snapshotDatabase(source.app);
    const entries = (exported.entries ?? []) as {
      id: number;
      clientId: string;
      kind: string;
      amount: number;
      voidOf: number | null;
    }[];
    const voidIndex = entries.findIndex((entry) => entry.kind === 'void');
    const voided = entries.find((entry) => entry.id === entries[voidIndex]?.voidOf);
    expect(voided).toBeDefined();
    // The entry the void reverses keeps its amount: the void's is judged against it.
    const indexOf = (kind: string) =>
      entries.findIndex((entry) => entry.kind === kind && entry !== voided);
    const flipped = new Set([indexOf('payment'), indexOf('charge'), indexOf('credit')]);
    expect(flipped.has(-1)).toBe(false);
    // Each client's balance still adds up, so only the signs are wrong: a payment of +700 would
    // otherwise come back as a payment that raises what the client owes.
    const changed = entries.map((entry, index) =>
      flipped.has(index)
        ? { ...entry, amount: -entry.amount }
        : index === voidIndex
          ? { ...entry, amount: entry.amount + 1 }
          : entry,
    );
    const balances = new Map<string, number>();
    for (const entry of changed)
      balances.set(entry.clientId, (balances.get(entry.clientId) ?? 0) + entry.amount);
    const file = {
      ...exported,
      clients: exported.clients.map((client) => ({
        ...client,
        balance: balances.get(client.id) ?? 0,
      })),
      entries: changed,
    };

    const refused = await restore(source.app, target.cookie, file);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      [`entries[${indexOf('payment')}].amount`]:
        'a payment takes from what the client owes: its amount must be below 0',
      [`entries[${indexOf('charge')}].amount`]:
        'a charge adds to what the client owes: its amount must be above 0',
      [`entries[${indexOf('credit')}].amount`]:
        'a credit takes from what the client owes: its amount must be below 0',
      [`entries[${voidIndex}].amount`]: `a void reverses the entry it names: its amount must be ${-(voided?.amount ?? 0)}`,
    });
    expect(await snapshotDatabase(source.app)).toEqual(before);
  });

  it('refuses a bad file naming each problem, and changes nothing', async () => {
    const target = await joinedAs(source.app);
    const before = await snapshotDatabase(source.app);
    const [first, ...others] = exported.clients;
    const broken = {
      ...exported,
      clients: [{ ...first, currency: 'EUR' }, ...others],
      entries: [
        ...(exported.entries ?? []),
        { ...exported.entries?.[0], id: 999_999, clientId: 'nobody' },
      ],
    };
    const refused = await restore(source.app, target.cookie, broken);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'validation',
        message: expect.stringMatching(
          /^This file cannot be restored: clients\[0\]\.currency: Choose a currency\./,
        ) as string,
        fields: { 'clients[0].currency': 'Choose a currency.' },
      },
    });

    const [one, two, ...rest] = exported.clients;
    const unlinked = await restore(source.app, target.cookie, {
      ...exported,
      clients: [one, { ...two, balance: (two?.balance ?? 0) + 1 }, ...rest],
      entries: [
        ...(exported.entries ?? []),
        { ...exported.entries?.[0], id: 999_999, clientId: 'nobody' },
      ],
    });
    expect(unlinked.statusCode).toBe(400);
    expect(unlinked.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
      [`entries[${exported.entries?.length}].clientId`]: 'no client nobody in the file',
      'clients[1].balance': `is ${(two?.balance ?? 0) + 1} but the client's entries add up to ${two?.balance}`,
    });

    const other = await restore(source.app, target.cookie, { clients: [] });
    expect(other.json()).toMatchObject({
      error: { message: expect.stringContaining('not a Balance export') as string },
    });
    const newer = await restore(source.app, target.cookie, {
      ...exported,
      version: exportVersion + 1,
    });
    expect(newer.json()).toMatchObject({
      error: { message: expect.stringContaining('written by a newer Balance') as string },
    });
    expect(await snapshotDatabase(source.app)).toEqual(before);
  });

  it('takes a file far over the usual body limit, in one request', async () => {
    const big = await joinAs(source.app);
    await injectOk(source.app, 'POST', '/api/clients/import', big.cookie, {
      rows: Array.from({ length: 3000 }, (_, i) => buildClient({ email: `many${i}@example.com` })),
      dryRun: false,
      skipDuplicates: true,
    });
    const file = (await injectOk(source.app, 'GET', '/api/export.json', big.cookie)).body;
    expect(file.length).toBeGreaterThan(1024 * 1024);
    const target = await joinAs(fresh);
    const response = await fresh.inject({
      method: 'POST',
      url: '/api/restore',
      headers: { cookie: target.cookie, 'content-type': 'application/json' },
      payload: file,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<RestoreSummary>()).toMatchObject({ clients: 3000, entries: 3000 });
  });

  it('needs a session', async () => {
    expect((await restore(source.app, '', exported)).statusCode).toBe(401);
  });
});
