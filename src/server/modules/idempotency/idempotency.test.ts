import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../shared/schemas/clients.ts';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { countingTurns } from '../../../../tests/turns.ts';
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { requestHash } from './idempotency.ts';

describe('Idempotency-Key on POST', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const add = (cookie: string, key: string | null, body: object) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie, ...(key === null ? {} : { 'idempotency-key': key }) },
      payload: body,
    });
  const countClients = async (bookId: string) =>
    (
      await testApp.app.db.kysely
        .selectFrom('clients')
        .select('id')
        .where('book_id', '=', bookId)
        .execute()
    ).length;

  it('answers a retried add with the first answer, and adds the client once', async () => {
    const owner = await joinAs(testApp.app);
    const body = buildClient();
    const first = await add(owner.cookie, 'add-0001-retry', body);
    expect(first.statusCode, first.body).toBe(201);
    const retry = await add(owner.cookie, 'add-0001-retry', body);
    expect(retry.statusCode).toBe(201);
    expect(retry.json<Client>()).toEqual(first.json<Client>());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.headers['content-type']).toBe(first.headers['content-type']);
    expect(await countClients(owner.userId)).toBe(1);
  });

  it('runs only one of the same request sent many times at once', async () => {
    const owner = await joinAs(testApp.app);
    const body = buildClient();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => add(owner.cookie, 'add-0002-burst', body)),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code !== 201 && code !== 409)).toEqual([]);
    expect(await countClients(owner.userId)).toBe(1);
  });

  it('refuses the same key with another request, and keeps keys apart per user', async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    expect((await add(owner.cookie, 'add-0003-shared', buildClient())).statusCode).toBe(201);
    const reused = await add(owner.cookie, 'add-0003-shared', buildClient());
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ error: { code: 'conflict' } });
    const theirs = await add(other.cookie, 'add-0003-shared', buildClient());
    expect(theirs.statusCode).toBe(201);
    expect(await countClients(owner.userId)).toBe(1);
    expect(await countClients(other.userId)).toBe(1);
  });

  it('leaves requests without a key as they were, and refuses a malformed key', async () => {
    const owner = await joinAs(testApp.app);
    const body = buildClient();
    expect((await add(owner.cookie, null, body)).statusCode).toBe(201);
    expect((await add(owner.cookie, null, body)).statusCode).toBe(201);
    expect(await countClients(owner.userId)).toBe(2);
    const malformed = await add(owner.cookie, 'bad key!', buildClient());
    expect(malformed.statusCode).toBe(400);
    expect(await countClients(owner.userId)).toBe(2);
  });

  it('hashes a large body (an import, a restore) as its bytes, a slice per turn of the event loop', async () => {
    const body = Buffer.alloc(8 * 1024 * 1024, 'x');
    body.write('end', body.length - 3);
    const request = { method: 'POST', url: '/api/restore', body } as unknown as FastifyRequest;
    const { value: hash, turns } = await countingTurns(() => requestHash(request));
    expect(hash).toBe(
      createHash('sha256').update('POST /api/restore\n').update(body).digest('hex'),
    );
    // A slice of 1 MiB a turn: other requests are answered between them.
    expect(turns).toBeGreaterThanOrEqual(7);
    // Every slice counts: a change in the last byte is another request.
    body.write('End', body.length - 3);
    expect(await requestHash(request)).not.toBe(hash);
  });
});
