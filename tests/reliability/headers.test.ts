import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs } from '../auth.ts';

// src/server/app.test.ts checks the page's CSP basics once; this file checks every kind of
// answer (API, errors of each kind, page, asset, live stream) and HSTS both ways.

type Headers = LightMyRequestResponse['headers'];

/** Answers of every kind the server gives; the cookie is filled in once there is a session. */
const answers: (InjectOptions & { name: string; api: boolean; status: number })[] = [
  { name: 'API success', status: 200, api: true, method: 'GET', url: '/api/health' },
  { name: 'API signed in', status: 200, api: true, method: 'GET', url: '/api/clients' },
  { name: 'CSV download', status: 200, api: true, method: 'GET', url: '/api/clients/export.csv' },
  { name: 'JSON download', status: 200, api: true, method: 'GET', url: '/api/export.json' },
  {
    name: '401 signed out',
    status: 401,
    api: true,
    method: 'GET',
    url: '/api/settings',
    headers: { cookie: 'balance_session=ended' },
  },
  {
    name: '404 client',
    status: 404,
    api: true,
    method: 'GET',
    url: '/api/clients/AAAAAAAAAAAAAAAAAAAAAA',
  },
  {
    name: '404 unknown API path',
    status: 404,
    api: true,
    method: 'GET',
    url: '/api/no/such/thing',
  },
  {
    name: '400 validation',
    status: 400,
    api: true,
    method: 'POST',
    url: '/api/clients',
    payload: { firstName: 1 },
  },
  {
    name: '400 malformed JSON',
    status: 400,
    api: true,
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: '{"email":',
  },
  {
    name: '415 wrong content type',
    status: 415,
    api: true,
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'email=a',
  },
  {
    name: '413 oversized body',
    status: 413,
    api: true,
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ email: 'x'.repeat(70_000) }),
  },
  {
    name: '403 cross-site',
    status: 403,
    api: true,
    method: 'POST',
    url: '/api/auth/logout',
    headers: { origin: 'https://evil.example' },
  },
  // Refused by Fastify's router itself, before our error handler and hooks. KNOWN DEFECT (see
  // the issue 8 report): this answer currently carries none of the security headers.
  {
    name: '400 malformed URL encoding',
    status: 400,
    api: true,
    method: 'GET',
    url: '/api/clients/%E0%A4%A',
  },
  { name: 'page', status: 200, api: false, method: 'GET', url: '/' },
  { name: 'deep link', status: 200, api: false, method: 'GET', url: '/client/abc' },
  { name: 'asset', status: 200, api: false, method: 'GET', url: '/assets/main-abc123.js' },
];

function directives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (typeof header === 'string' ? header : '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

function expectStrictHeaders(name: string, headers: Headers): void {
  const csp = directives(headers['content-security-policy']);
  expect(csp.size, `${name}: a Content-Security-Policy`).toBeGreaterThan(0);
  expect(csp.get('default-src'), name).toEqual(["'self'"]);
  const scripts = csp.get('script-src') ?? [];
  expect(scripts, name).toContain("'self'");
  for (const loose of [
    "'unsafe-inline'",
    "'unsafe-eval'",
    "'unsafe-hashes'",
    '*',
    'data:',
    'http:',
    'https:',
  ]) {
    expect(scripts, `${name}: script-src allows ${loose}`).not.toContain(loose);
  }
  expect(csp.get('script-src-attr'), name).toEqual(["'none'"]);
  expect(csp.get('style-src') ?? [], name).not.toContain("'unsafe-inline'");
  expect(csp.get('object-src'), name).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), name).toEqual(["'none'"]);
  expect(csp.get('base-uri'), name).toEqual(["'self'"]);
  expect(csp.get('form-action'), name).toEqual(["'self'"]);
  expect(headers['x-content-type-options'], name).toBe('nosniff');
  expect(
    ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'],
    name,
  ).toContain(headers['referrer-policy']);
  expect(headers['x-powered-by'], name).toBeUndefined();
}

let clientDir: string;
let plain: TestApp;
let proxied: TestApp;
let cookie: string;

beforeAll(async () => {
  clientDir = await mkdtemp(path.join(os.tmpdir(), 'balance-headers-'));
  await mkdir(path.join(clientDir, 'assets'));
  await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
  await writeFile(path.join(clientDir, 'assets', 'main-abc123.js'), 'export {}');
  plain = await buildTestApp({ clientDir });
  proxied = await buildTestApp({ clientDir, config: { trustProxy: 1 } });
  ({ cookie } = await joinAs(plain.app));
});

afterAll(async () => {
  await plain.close();
  await proxied.close();
  await rm(clientDir, { recursive: true, force: true });
});

type Answer = (typeof answers)[number];
const injectOptions = ({ name: _name, api: _api, status: _status, ...options }: Answer) => options;
const send = (testApp: TestApp, answer: Answer) => {
  const options = injectOptions(answer);
  return testApp.app.inject({ ...options, headers: { cookie, ...options.headers } });
};

describe('security headers', () => {
  it.each(answers.map((answer) => [answer.name, answer] as const))(
    'are strict on the %s answer',
    async (name, answer) => {
      const response = await send(plain, answer);
      expect(response.statusCode, name).toBe(answer.status);
      expectStrictHeaders(name, response.headers);
      if (answer.api) expect(response.headers['cache-control'], name).toBe('no-store');
      else expect(response.headers['cache-control'], name).not.toBe('no-store');
    },
  );

  it('are strict on the live stream too, which is never cached', async () => {
    const address = await plain.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    try {
      const response = await fetch(`${address}/api/events`, {
        headers: { cookie },
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expectStrictHeaders('live stream', Object.fromEntries(response.headers));
      expect(response.headers.get('cache-control')).toBe('no-store');
    } finally {
      controller.abort();
    }
  });
});

describe('Strict-Transport-Security', () => {
  it('is not sent without TRUST_PROXY, even when a request claims HTTPS', async () => {
    for (const answer of answers) {
      const response = await plain.app.inject({
        method: answer.method,
        url: answer.url,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.headers['strict-transport-security'], answer.name).toBeUndefined();
    }
  });

  it('is sent for at least 180 days on every answer behind a TLS proxy (TRUST_PROXY=true)', async () => {
    for (const answer of answers) {
      const response = await proxied.app.inject({
        ...injectOptions(answer),
        headers: { 'x-forwarded-proto': 'https', ...answer.headers },
      });
      const hsts = String(response.headers['strict-transport-security'] ?? '');
      const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0);
      expect(maxAge, `${answer.name}: ${hsts}`).toBeGreaterThanOrEqual(180 * 24 * 3600);
      expectStrictHeaders(answer.name, response.headers);
    }
  });
});
