import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { testDialect } from '../../../../tests/db.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import { AppError } from '../../errors.ts';

// Named commands run in SQLite's writer thread (decision 014); on PostgreSQL there is no such
// thread, and the same commands run on the request thread, tested by every route's tests.
describe.skipIf(testDialect !== 'sqlite')('commands in the SQLite writer (SQLite only)', () => {
  let testApp: TestApp;
  let bookId: string;

  beforeAll(async () => {
    testApp = await buildTestApp();
    bookId = (await joinAs(testApp.app)).userId;
  });

  afterAll(async () => {
    await testApp.close();
  });

  const writer = () => {
    const sqlite = testApp.app.db.sqlite;
    if (!sqlite) throw new Error('the test database is SQLite');
    return sqlite;
  };

  const clientsOf = (owner: string) =>
    testApp.app.db.kysely
      .selectFrom('clients')
      .select(['email', 'balance'])
      .where('book_id', '=', owner)
      .orderBy('email')
      .execute();

  it('answers the value of a command once committed, and says it changed something', async () => {
    const input = buildClient({ email: 'first.command@example.com', balance: 500 });
    const { value, changed } = await writer().runCommand<Client>('clients.addClient', bookId, [
      input,
    ]);
    expect(changed).toBe(true);
    expect(value).toMatchObject({ email: input.email, balance: 500, version: 1 });
    // Read on a reader, which sees only what is committed.
    expect(await clientsOf(bookId)).toContainEqual({ email: input.email, balance: 500 });
  });

  it('throws the AppError a command threw, whole: status, code, message and fields', async () => {
    const client = (
      await writer().runCommand<Client>('clients.addClient', bookId, [buildClient({ balance: 0 })])
    ).value;
    const refused = writer().runCommand('ledger.recordEntry', bookId, [
      client.id,
      { kind: 'charge', amount: 100, date: '2999-01-01' },
    ]);
    await expect(refused).rejects.toBeInstanceOf(AppError);
    const error = (await refused.catch((caught: unknown) => caught)) as AppError;
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation');
    expect(error.fields).toEqual({ date: 'The date cannot be in the future.' });
    expect(error.in('ko').fields?.date).not.toBe('The date cannot be in the future.');
  });

  it('takes an import’s body as bytes and writes every row in its order', async () => {
    const importer = (await joinAs(testApp.app)).userId;
    // As many as the command writes itself (rowsPerSlice); more go in slices (decision 042).
    const rows = Array.from({ length: 250 }, (_, index) =>
      buildClient({ email: `row${String(index).padStart(4, '0')}@example.com`, balance: index }),
    );
    const body = Buffer.from(JSON.stringify({ rows, dryRun: false, skipDuplicates: false }));
    const { changed, value } = await writer().runCommand<{ imported: number }>(
      'transfer.importFile',
      importer,
      [body],
    );
    expect(changed).toBe(true);
    expect(value.imported).toBe(250);
    const stored = await clientsOf(importer);
    expect(stored).toEqual(rows.map(({ email, balance }) => ({ email, balance })));
  });

  it('moves bytes that are the whole of their memory to the writer, and copies bytes that share theirs', async () => {
    const importer = (await joinAs(testApp.app)).userId;
    const body = (emails: string[]) =>
      // As the route reads a body: its chunks joined (readBodyBytes).
      Buffer.concat([
        Buffer.from(
          JSON.stringify({
            // Notes make a body of few rows large enough to have memory of its own.
            rows: emails.map((email) => buildClient({ email, notes: 'n'.repeat(500) })),
            dryRun: false,
            skipDuplicates: false,
          }),
        ),
      ]);
    const manyEmails = Array.from({ length: 200 }, (_, index) => `own${index}@example.com`);
    // A large body has memory of its own; a small one is cut from a pool Node shares.
    const own = body(manyEmails);
    const pooled = body(['pooled@example.com']);
    const pooledText = pooled.toString();
    expect(own.byteLength).toBe(own.buffer.byteLength);
    expect(pooled.byteLength).toBeLessThan(pooled.buffer.byteLength);

    let imported = 0;
    for (const bytes of [own, pooled]) {
      const { value } = await writer().runCommand<{ imported: number }>(
        'transfer.importFile',
        importer,
        [bytes],
      );
      imported += value.imported;
    }
    expect(imported).toBe(201);
    // Moved, not copied: the request thread's view of it is empty now.
    expect(own.byteLength).toBe(0);
    // The pool's other Buffers are untouched.
    expect(pooled.toString()).toBe(pooledText);
    expect((await clientsOf(importer)).map((client) => client.email).sort()).toEqual(
      [...manyEmails, 'pooled@example.com'].sort(),
    );
  });

  it('moves memory named twice in one message once, and fails a request it cannot send, not the process', async () => {
    const importer = (await joinAs(testApp.app)).userId;
    const emails = Array.from({ length: 400 }, (_, index) => `twice${index}@example.com`);
    const body = Buffer.concat([
      Buffer.from(
        JSON.stringify({
          rows: emails.map((email) => buildClient({ email })),
          dryRun: true,
          skipDuplicates: false,
        }),
      ),
    ]);
    expect(body.byteLength).toBe(body.buffer.byteLength);
    // Both in the same turn, so in the same message: the memory is listed to move once.
    const previews = await Promise.all([
      writer().runCommand<{ imported: number }>('transfer.importFile', importer, [body]),
      writer().runCommand<{ imported: number }>('transfer.importFile', importer, [body]),
    ]);
    expect(previews.map(({ changed }) => changed)).toEqual([false, false]);

    // A function cannot cross to another thread, moved or copied.
    await expect(
      writer().runCommand('clients.addClient', importer, [() => buildClient()]),
    ).rejects.toThrow(/could not be cloned/);
    const { changed } = await writer().runCommand('clients.addClient', importer, [buildClient()]);
    expect(changed).toBe(true);
  });

  it('restores an export file given as bytes, all of it in one command', async () => {
    const source = await joinAs(testApp.app);
    for (const [index, balance] of [1500, -250, 0].entries()) {
      const added = await testApp.app.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie: source.cookie },
        payload: buildClient({ email: `restored${index}@example.com`, balance }),
      });
      expect(added.statusCode).toBe(201);
    }
    const exported = await testApp.app.inject({
      method: 'GET',
      url: '/api/export.json',
      headers: { cookie: source.cookie },
    });
    expect(exported.statusCode).toBe(200);
    const target = (await joinAs(testApp.app)).userId;
    // Each call gets a copy: bytes with memory of their own move to the writer (tested above).
    const file = () => Buffer.from(exported.rawPayload);

    const preview = await writer().runCommand<{ clients: number; restored: boolean }>(
      'transfer.restoreFile',
      target,
      [file(), true],
    );
    expect(preview).toMatchObject({ changed: false, value: { clients: 3, restored: false } });
    expect(await clientsOf(target)).toEqual([]);

    const restored = await writer().runCommand<{ clients: number; entries: number }>(
      'transfer.restoreFile',
      target,
      [file(), false],
    );
    expect(restored).toMatchObject({ changed: true, value: { clients: 3, entries: 2 } });
    expect(await clientsOf(target)).toEqual(await clientsOf(source.userId));
  });

  it('refuses a command it does not know, and goes on running the others', async () => {
    await expect(writer().runCommand('clients.noSuchCommand', bookId, [])).rejects.toThrow(
      'knows no command named clients.noSuchCommand',
    );
    const { changed } = await writer().runCommand('clients.addClient', bookId, [buildClient()]);
    expect(changed).toBe(true);
  });
});
