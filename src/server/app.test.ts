import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../tests/app.ts';
import { testDialect } from '../../tests/db.ts';

describe('the app shell', () => {
  let clientDir: string;
  let testApp: TestApp;

  beforeAll(async () => {
    clientDir = await mkdtemp(path.join(os.tmpdir(), 'balance-client-'));
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(clientDir, 'assets', 'main-abc123.js'), 'console.log(1)');
    await writeFile(
      path.join(clientDir, 'assets', 'main-abc123.js.br'),
      brotliCompressSync(Buffer.from('console.log(1)')),
    );
    testApp = await buildTestApp({ clientDir });
  });

  afterAll(async () => {
    await testApp.close();
    await rm(clientDir, { recursive: true, force: true });
  });

  it('answers GET /api/health after reaching the database', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: testDialect });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown /api path with a JSON 404', async () => {
    for (const url of ['/api/nope', '/api', '/api/client/abc']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('serves the app for deep links, so a reload of /client/abc works', async () => {
    for (const url of ['/', '/client/abc', '/nope/deeper?x=1']) {
      const response = await testApp.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves built assets with a long cache lifetime', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
  });

  it('sends the compressed copy the build made to a browser that accepts it', async () => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: '/assets/main-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe('console.log(1)');
  });

  it('answers a path it cannot decode with a 400 in our error shape', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/clients/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'validation', message: 'The address of the request is not valid' },
    });
  });

  it('does not serve the app for other methods on unknown paths', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/client/abc', payload: {} });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('sends the security headers on every answer', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
  });

  it('refuses an oversized body before parsing it', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ padding: 'x'.repeat(200_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });
});

describe('the database', () => {
  it('is made by the migrations, which are safe to run again', async () => {
    const first = await buildTestApp();
    try {
      const tables = await first.app.db.kysely.introspection.getTables();
      const names = tables.map((table) => table.name);
      expect(names).toEqual(expect.arrayContaining(['users', 'sessions', 'login_throttle']));
      await first.app.close();
      // A second start on the same database finds nothing left to do.
      const { buildApp } = await import('./app.ts');
      const { loadConfig } = await import('./config.ts');
      const second = await buildApp({
        config: { ...loadConfig({}), database: first.database.config },
      });
      const again = await second.db.kysely.introspection.getTables();
      expect(again.map((table) => table.name).sort()).toEqual(names.sort());
      await second.close();
    } finally {
      await first.database.drop();
    }
  });

  it('opens SQLite with WAL, full sync and foreign keys', async () => {
    const { openSqlite } = await import('./db/sqlite/connection.ts');
    const { createTestDatabase } = await import('../../tests/db.ts');
    const database = await createTestDatabase('sqlite');
    const sqlite = openSqlite(database.config.dialect === 'sqlite' ? database.config.file : '');
    try {
      const pragma = (name: string) =>
        sqlite.raw.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>;
      expect(pragma('journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(pragma('synchronous')).toEqual({ synchronous: 2 });
      expect(pragma('foreign_keys')).toEqual({ foreign_keys: 1 });
      expect(pragma('busy_timeout')).toEqual({ timeout: 5000 });
    } finally {
      sqlite.close();
      await database.drop();
    }
  });
});
