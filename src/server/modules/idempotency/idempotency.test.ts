import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../../shared/schemas/clients.ts';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';

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
  const countClients = async (ownerId: string) =>
    (
      await testApp.app.db.kysely
        .selectFrom('clients')
        .select('id')
        .where('owner_id', '=', ownerId)
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
});
