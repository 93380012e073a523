import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { maxJsonDepth } from '../../json-shape.ts';
import { transferParsesAtOnce, withParseSlot } from './parse-slots.ts';

const tooDeep = {
  error: {
    code: 'validation',
    message: `The request body nests arrays and objects more than ${maxJsonDepth} levels deep`,
  },
};

/** `head` + a value nested `depth` deep (arrays, or objects if asked) + `tail`. */
function nested(head: string, depth: number, tail = '}', objects = false): string {
  const [open, close] = objects ? ['{"a":', '}'] : ['[', ']'];
  return `${head}${open.repeat(depth - 1)}${objects ? '{}' : '[]'}${close.repeat(depth - 1)}${tail}`;
}

describe('bodies nested too deep', () => {
  let testApp: TestApp;
  let cookie: string;
  beforeAll(async () => {
    testApp = await buildTestApp();
    ({ cookie } = await joinAs(testApp.app));
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = (url: string, payload: string) =>
    testApp.app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/json' },
      payload,
    });
  const clientCount = async () =>
    Number(
      (
        await testApp.app.db.kysely
          .selectFrom('clients')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('refuses a restore, an import and a small form nested past the limit, naming it, changing nothing', async () => {
    const before = await clientCount();
    const restoreHead = '{"format":"balance-export","version":2,"x":';
    const bodies: [string, string][] = [
      // Megabytes of nothing but brackets, as in the report of a restore that took 3.7 GB.
      ['/api/restore', nested(restoreHead, 2_000_000)],
      ['/api/restore?dryRun=true', nested(restoreHead, maxJsonDepth, '}', true)],
      ['/api/clients/import', nested('{"dryRun":false,"skipDuplicates":false,"rows":', 500_000)],
      ['/api/clients', nested('{"firstName":', 20_000)],
      ['/api/clients', nested('{"lastName":', maxJsonDepth, '}', true)],
    ];
    for (const [url, payload] of bodies) {
      const refused = await post(url, payload);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json(), url).toEqual(tooDeep);
    }
    expect(await clientCount()).toBe(before);
  });

  it('refuses a restore, an import and a small form that are wide rather than deep, changing nothing', async () => {
    const before = await clientCount();
    const bodies: [string, string][] = [
      // 60 MB of `[],` took a process to 1.4 GB when parsed; 6 MB is enough to show the refusal.
      ['/api/restore', `{"format":"balance-export","version":2,"x":[${'[],'.repeat(2_000_000)}0]}`],
      [
        '/api/clients/import',
        `{"dryRun":true,"skipDuplicates":false,"rows":[${'{},'.repeat(500_000)}{}]}`,
      ],
      ['/api/clients', `{"firstName":[${'0,'.repeat(20_000)}0]}`],
    ];
    for (const [url, payload] of bodies) {
      const refused = await post(url, payload);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json<{ error: { message: string } }>().error.message, url).toMatch(
        /^The request body holds more arrays, objects and values than its size allows/,
      );
    }
    expect(await clientCount()).toBe(before);
  });

  it('takes nesting up to the limit, and brackets inside strings are only text', async () => {
    // One level less than refused above: the nesting passes, and the file's own check answers.
    const file = nested('{"format":"balance-export","version":2,"x":', maxJsonDepth - 1);
    const checked = await post('/api/restore?dryRun=true', file);
    expect(checked.statusCode).toBe(400);
    expect(checked.json<{ error: { message: string } }>().error.message).toMatch(
      /^This file cannot be restored/,
    );
    const row = buildClient({ lastName: `${'[{'.repeat(50)}"\\"${'['.repeat(50)}` });
    const imported = await post(
      '/api/clients/import',
      JSON.stringify({ rows: [row], dryRun: true, skipDuplicates: false }),
    );
    expect(imported.statusCode).toBe(200);
  });

  it(`runs at most ${transferParsesAtOnce} imports or restores at once, answering 429 with Retry-After beyond`, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: transferParsesAtOnce }, () => withParseSlot(() => held));
    try {
      const payload = JSON.stringify({
        rows: [buildClient()],
        dryRun: true,
        skipDuplicates: false,
      });
      for (const url of ['/api/clients/import', '/api/restore?dryRun=true']) {
        const refused = await post(url, payload);
        expect(refused.statusCode, url).toBe(429);
        expect(refused.headers['retry-after'], url).toBe('5');
        expect(refused.json(), url).toEqual({
          error: {
            code: 'rate_limited',
            message:
              'Too many imports and restores are running on this server; try again in a moment',
          },
        });
      }
    } finally {
      release();
      await Promise.all(holders);
    }
    const payload = JSON.stringify({ rows: [buildClient()], dryRun: true, skipDuplicates: false });
    expect((await post('/api/clients/import', payload)).statusCode).toBe(200);
  });
});
