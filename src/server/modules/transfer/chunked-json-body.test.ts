import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { countingTurns } from '../../../../tests/turns.ts';
import type { ImportResult } from '../../../shared/schemas/clients.ts';
import type { AppError } from '../../errors.ts';
import {
  parseJsonBody,
  parseJsonInPieces,
  parseJsonWhole,
  readBodyBytes,
} from './chunked-json-body.ts';

const request = (bodyLimit: number, contentLength?: number) =>
  ({
    routeOptions: { bodyLimit },
    headers: contentLength === undefined ? {} : { 'content-length': String(contentLength) },
  }) as unknown as FastifyRequest;

const importText = (rows: number) =>
  JSON.stringify({
    dryRun: true,
    skipDuplicates: false,
    rows: Array.from({ length: rows }, (_, n) => ({
      ...buildClient({ lastName: `Zoë ${n} 🙂` }),
      note: { nested: [n, `${n}`, null, true] },
    })),
  });

/**
 * Reads `chunks` as the route's parser does, giving the body's bytes. Their Content-Length is
 * their length unless `declared` says otherwise; null sends none (a body sent in chunks).
 */
const readBytes = (
  chunks: (Buffer | string)[],
  limit = 8 * 1024 * 1024,
  declared?: number | null,
) =>
  readBodyBytes(
    request(
      limit,
      declared === null
        ? undefined
        : (declared ?? chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0)),
    ),
    Readable.from(chunks),
  );

/** Parses `text`, counting the turns other work had meanwhile. */
const parseCounting = (text: string) => countingTurns(() => parseJsonBody(Buffer.from(text)));

/** The two ways a body is parsed: in pieces on the request thread, whole in SQLite's writer. */
const parsers = [
  ['in pieces', parseJsonInPieces],
  ['whole', parseJsonWhole],
] as const;

/** What a refused parse was answered: its status and message, or null when it was not refused. */
const parseRefusal = (
  text: string,
  parse: (bytes: Uint8Array) => Promise<unknown> = parseJsonInPieces,
) =>
  parse(Buffer.from(text)).then(
    () => null,
    (error: AppError) => [error.status, error.message],
  );

describe('a JSON body read as bytes, then parsed', () => {
  it('gives way to other work while it parses a large body on the request thread', async () => {
    const text = importText(20_000);
    expect(text.length).toBeGreaterThan(2_000_000);
    const { value, turns } = await parseCounting(text);
    expect(value).toEqual(JSON.parse(text));
    // JSON.parse would parse it in one turn; in pieces of 16 Ki characters it takes one a piece
    // (the walk that looks for __proto__ after it gives one per 2,000 objects: about 30 here).
    expect(turns).toBeGreaterThanOrEqual(Math.floor(text.length / (16 * 1024)));
  });

  it.each(parsers)(
    'gives the same value as JSON.parse wherever the chunks split the text, characters included (%s)',
    async (_how, parse) => {
      const text = importText(40);
      const bytes = Buffer.from(text);
      for (const size of [1, 2, 3, 7, 64, 1000, bytes.length]) {
        const chunks: Buffer[] = [];
        for (let start = 0; start < bytes.length; start += size)
          chunks.push(bytes.subarray(start, start + size));
        // Copied into place as they arrive, or joined at the end when no length was declared.
        for (const declared of [undefined, null]) {
          const value = await parse(await readBytes(chunks, undefined, declared));
          expect(value, `chunks of ${size} bytes, declared ${declared}`).toEqual(JSON.parse(text));
        }
      }
    },
  );

  it('reads a body over 1 MiB whole, with its length declared or not', async () => {
    const text = importText(20_000);
    const bytes = Buffer.from(text);
    expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
    const chunks: Buffer[] = [];
    for (let start = 0; start < bytes.length; start += 64 * 1024)
      chunks.push(bytes.subarray(start, start + 64 * 1024));
    for (const declared of [undefined, null]) {
      const read = await readBytes(chunks, undefined, declared);
      expect(read.equals(bytes), `declared ${declared}`).toBe(true);
    }
  });

  it('refuses on reading what Fastify refuses, with its codes', async () => {
    const refusal = (
      text: string,
      limit = 1024,
      declared: number | null = Buffer.byteLength(text),
    ) =>
      readBytes([Buffer.from(text)], limit, declared).then(
        () => null,
        (error: { code?: string; statusCode?: number }) => [error.code, error.statusCode],
      );
    const tooLarge = ['FST_ERR_CTP_BODY_TOO_LARGE', 413];
    expect(await refusal('{"a":1}', 4)).toEqual(tooLarge);
    // Declared short, sent long: counted as it arrives.
    expect(await refusal(`{"a":"${'x'.repeat(2000)}"}`, 1024, 10)).toEqual(tooLarge);
    expect(await refusal('{"a":1}', 1024, 3)).toEqual(['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400]);
    expect(await refusal('{"a":1}', 1024, 30)).toEqual(['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400]);
    // Without a declared length, the limit still holds as it arrives.
    expect(await refusal(`{"a":"${'x'.repeat(2000)}"}`, 1024, null)).toEqual(tooLarge);
    expect(await refusal('', 1024)).toEqual(['FST_ERR_CTP_EMPTY_JSON_BODY', 400]);
    expect(await refusal('{"a":1}')).toBeNull();
  });

  it.each(parsers)(
    'refuses on parsing what is not one JSON value, or names __proto__, as Fastify does (%s)',
    async (_how, parse) => {
      const notJson = [400, 'The request body is not valid JSON'];
      for (const text of [
        '{"a":',
        '{"rows":[',
        '{"rows":[{"a":1},',
        '{} {}',
        '{"a":1}}',
        '{"rows":[{"__proto__":{"isAdmin":true}}]}',
        '{"\\u005f_proto__":{}}',
        '{"rows":[{"constructor":{"prototype":{"isAdmin":true}}}]}',
      ])
        expect(await parseRefusal(text, parse), text).toEqual(notJson);
      // As Fastify's parser reads them: a byte order mark is left out, a constructor is a key.
      expect(await parse(Buffer.from('\ufeff{"a":1}'))).toEqual({ a: 1 });
      expect(await parse(Buffer.from('{"constructor":"x"}'))).toEqual({ constructor: 'x' });
      // No body at all is refused the same way.
      const noBody = await parse(undefined as unknown as Uint8Array).then(
        () => null,
        (error: AppError) => [error.status, error.message],
      );
      expect(noBody).toEqual(notJson);
      expect(
        await parseRefusal('[' + '['.repeat(50_000) + ']'.repeat(50_000) + ']', parse),
      ).toBeNull();
    },
  );

  it('refuses __proto__ in a piece merged into an object parsed earlier', async () => {
    // The object starts in the first piece of 16 Ki characters; the key comes in the second.
    const text = `{"rows":[{"firstName":"${'A'.repeat(20_000)}","__proto__":{"email":"x@example.com"}}]}`;
    expect(await parseRefusal(text)).toEqual([400, 'The request body is not valid JSON']);
    expect(({} as { email?: string }).email).toBeUndefined();
  });
});

describe('the import and restore routes', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('parses its body in pieces and answers as before; refuses __proto__ and broken JSON, writing nothing', async () => {
    const { cookie } = await joinAs(testApp.app);
    const rows = Array.from({ length: 3 }, (_, n) => buildClient({ lastName: `Piece ${n}` }));
    const send = (payload: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/clients/import',
        headers: { cookie, 'content-type': 'application/json; charset=utf-8' },
        payload,
      });
    const imported = await send(JSON.stringify({ rows, dryRun: false, skipDuplicates: false }));
    expect(imported.statusCode).toBe(200);
    expect(imported.json<ImportResult>()).toEqual({
      results: [0, 1, 2].map((row) => ({ row, status: 'ok' })),
      imported: 3,
      balancesZeroed: false,
    });
    const count = async () =>
      Number(
        (
          await testApp.app.db.kysely
            .selectFrom('clients')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const payload of [
      `{"rows":[{"__proto__":{"isAdmin":true},${JSON.stringify(rows[0]).slice(1)}],"dryRun":false,"skipDuplicates":false}`,
      '{"rows":[',
    ]) {
      const refused = await send(payload);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        error: { code: 'validation', message: 'The request body is not valid JSON' },
      });
    }
    expect(await count()).toBe(before);
  });

  it('take JSON only: a body of another type is answered 415, none at all 400, and nothing changes', async () => {
    const { cookie } = await joinAs(testApp.app);
    const clients = () =>
      testApp.app.db.kysely.selectFrom('clients').select('id').orderBy('id').execute();
    const before = await clients();
    for (const url of ['/api/clients/import', '/api/restore', '/api/restore?dryRun=true'])
      for (const [type, payload] of [
        ['text/plain', ''],
        ['text/plain', '{"rows":[]}'],
        ['application/octet-stream', '{}'],
      ] as const) {
        const refused = await testApp.app.inject({
          method: 'POST',
          url,
          headers: { cookie, 'content-type': type },
          payload,
        });
        expect(refused.statusCode, `${url} ${type} ${payload}`).toBe(415);
        expect(refused.json()).toEqual({
          error: {
            code: 'validation',
            message: 'This kind of request body is not accepted here; send JSON',
          },
        });
      }
    // No body and no type: no parser runs, and the command finds no JSON.
    for (const url of ['/api/clients/import', '/api/restore', '/api/restore?dryRun=true']) {
      const empty = await testApp.app.inject({ method: 'POST', url, headers: { cookie } });
      expect(empty.statusCode, url).toBe(400);
      expect(empty.json()).toEqual({
        error: { code: 'validation', message: 'The request body is not valid JSON' },
      });
    }
    expect(await clients()).toEqual(before);
  });
});
