import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs } from '../auth.ts';

describe('requests at the edges', () => {
  let clientDir: string;
  let testApp: TestApp;
  let cookie: string;

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(os.tmpdir(), 'balance-edges-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(clientDir, 'assets', 'main-abc123.js'), 'export {}');
    await writeFile(
      path.join(clientDir, 'assets', 'main-abc123.js.map'),
      '{"version":3,"sources":["src/server/secret.ts"]}',
    );
    testApp = await buildTestApp({ clientDir });
    ({ cookie } = await joinAs(testApp.app));
  });

  afterAll(async () => {
    await testApp.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it.each(['/%61pi/clients', '/%61%70%69/clients', '/API/clients'])(
    'answers %s like the API it reaches: never cached',
    async (url) => {
      const response = await testApp.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.headers['cache-control']).toBe('no-store');
    },
  );

  it('does not publish source maps', async () => {
    const asset = await testApp.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(asset.statusCode).toBe(200);
    for (const url of ['/assets/main-abc123.js.map', '/assets/main-abc123.js.MAP']) {
      const map = await testApp.app.inject({ method: 'GET', url });
      expect(map.body).not.toContain('sources');
    }
  });

  it('answers only the host names it is configured for, when it is', async () => {
    const strict = await buildTestApp({ config: { allowedHosts: ['balance.example.com'] } });
    try {
      const ours = await strict.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host: 'Balance.Example.com' },
      });
      expect(ours.statusCode).toBe(200);
      const other = await strict.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host: 'attacker.example' },
      });
      expect(other.statusCode).toBe(421);
      expect(other.json()).toEqual({
        error: { code: 'forbidden', message: 'This server does not answer for that host name' },
      });
    } finally {
      await strict.close();
    }
  });
});
