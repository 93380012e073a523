import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import { exportVersion, type RestoreSummary } from '../../../shared/schemas/restore.ts';
import { sessionCookieName } from '../auth/session.ts';

// Export version 8 is a book's (issue 58, decision 044): its name and members, who made each
// change, and the members' changes. People are not restored: a change is credited to the member
// of the target book with the same e-mail, else to nobody, never to whoever restores.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

interface ExportFile {
  version: number;
  book: { name: string; members: { email: string; role: string }[] };
  history: { action: string; by?: string | null; member?: { change: string; email: string } }[];
  [key: string]: unknown;
}

/** A book whose owner invited a bookkeeper, who then recorded a payment. */
async function keptByTwo() {
  const { app } = testApp;
  const owner = await joinAs(app);
  const client = (
    await injectOk(app, 'POST', '/api/clients', owner.cookie, buildClient({ balance: 5_000 }))
  ).json<Client>();
  const bookkeeperEmail = uniqueEmail('bookkeeper');
  const { path } = (
    await injectOk(app, 'POST', '/api/book/invitations', owner.cookie, {
      email: bookkeeperEmail,
      role: 'bookkeeper',
    })
  ).json<{ path: string }>();
  const accepted = await app.inject({
    method: 'POST',
    url: `/api/invitations/${path.split('/').at(-1)}/accept`,
    payload: { password: strongPassword },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const session = accepted.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
  const bookkeeper = { cookie: `${sessionCookieName}=${session}`, email: bookkeeperEmail };
  await injectOk(app, 'POST', `/api/clients/${client.id}/entries`, bookkeeper.cookie, {
    kind: 'payment',
    amount: 1_000,
    date: '2026-02-01',
  });
  const file = (await injectOk(app, 'GET', '/api/export.json', owner.cookie)).json<ExportFile>();
  return { owner, bookkeeper, client, file };
}

describe(`export version ${exportVersion}`, () => {
  it('carries the book, its members, who made each change, and the members joining', async () => {
    const { owner, bookkeeper, file } = await keptByTwo();
    expect(file.version).toBe(exportVersion);
    expect(file.book.name).toBe(owner.email);
    expect(file.book.members.toSorted((a, b) => a.role.localeCompare(b.role))).toEqual([
      { email: bookkeeper.email, role: 'bookkeeper' },
      { email: owner.email, role: 'owner' },
    ]);
    const byAction = file.history.map((event) => [event.action, event.by, event.member?.change]);
    expect(byAction).toEqual([
      ['created', owner.email, undefined],
      ['members_changed', owner.email, 'invited'],
      ['members_changed', bookkeeper.email, 'joined'],
      ['entry_recorded', bookkeeper.email, undefined],
    ]);
  });

  it('credits a restored change to nobody where its author keeps no part of the new book', async () => {
    const { file } = await keptByTwo();
    const target = await joinAs(testApp.app);
    const done = await testApp.app.inject({
      method: 'POST',
      url: '/api/restore',
      headers: { cookie: target.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(file),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<RestoreSummary>().version).toBe(exportVersion);
    const again = (
      await injectOk(testApp.app, 'GET', '/api/export.json', target.cookie)
    ).json<ExportFile>();
    // The file's history comes back with its members' changes, credited to nobody here; what the
    // restore itself does (each client's `restored`, the settings it writes) is the restorer's.
    const fromFile = again.history.slice(0, file.history.length);
    expect(fromFile.map((event) => [event.action, event.by])).toEqual([
      ['created', null],
      ['members_changed', null],
      ['members_changed', null],
      ['entry_recorded', null],
    ]);
    const byRestore = again.history.slice(file.history.length);
    expect(byRestore.map((event) => [event.action, event.by])).toEqual([
      ['restored', target.email],
      ['settings_changed', target.email],
    ]);
    // The people of the file are not brought in: the new book has its one owner.
    expect(again.book.members).toEqual([{ email: target.email, role: 'owner' }]);
  });

  it('carries the day the book is closed up to, and the restored book stays closed to it', async () => {
    const { owner } = await keptByTwo();
    await injectOk(testApp.app, 'PUT', '/api/book/lock-date', owner.cookie, {
      lockDate: '2026-01-31',
    });
    const file = (await injectOk(testApp.app, 'GET', '/api/export.json', owner.cookie)).json<
      ExportFile & { settings: { lockDate: string | null } }
    >();
    expect(file.settings.lockDate).toBe('2026-01-31');
    const target = await joinAs(testApp.app);
    const done = await testApp.app.inject({
      method: 'POST',
      url: '/api/restore',
      headers: { cookie: target.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(file),
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = await injectOk(testApp.app, 'GET', '/api/book/lock-date', target.cookie);
    expect(after.json()).toEqual({ lockDate: '2026-01-31' });
  });

  it('restores a version-7 file, which names no book and no authors', async () => {
    const { file } = await keptByTwo();
    const { book: _book, ...older } = file;
    const version7 = {
      ...older,
      version: 7,
      history: file.history
        .filter((event) => event.action !== 'members_changed')
        .map(({ by: _by, member: _member, ...event }) => event),
    };
    const target = await joinAs(testApp.app);
    const done = await testApp.app.inject({
      method: 'POST',
      url: '/api/restore',
      headers: { cookie: target.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify(version7),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<RestoreSummary>()).toMatchObject({ version: 7, clients: 1, entries: 2 });
  });
});
