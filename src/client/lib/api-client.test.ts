import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client.ts';

const anything = { parse: (data: unknown) => data };

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends a POST again after a lost answer, with the same Idempotency-Key', async () => {
    const keys: (string | null)[] = [];
    let calls = 0;
    vi.stubGlobal('fetch', (_path: string, init: RequestInit) => {
      keys.push(new Headers(init.headers).get('idempotency-key'));
      calls += 1;
      return calls === 1
        ? Promise.reject(new TypeError('network error'))
        : Promise.resolve(answer(201, { id: 'c1' }));
    });
    await expect(
      apiRequest('POST', '/api/clients', { body: {}, schema: anything }),
    ).resolves.toEqual({
      id: 'c1',
    });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\w-]{8,128}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('gives each POST a key of its own, and sends none with other methods', async () => {
    const keys: (string | null)[] = [];
    vi.stubGlobal('fetch', (_path: string, init: RequestInit) => {
      keys.push(new Headers(init.headers).get('idempotency-key'));
      return Promise.resolve(answer(200, {}));
    });
    await apiRequest('POST', '/api/a', { body: {}, schema: anything });
    await apiRequest('POST', '/api/a', { body: {}, schema: anything });
    await apiRequest('PUT', '/api/a', { body: {}, schema: anything });
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBeNull();
  });

  it('gives up with a network error once the retries are spent, and never retries other methods', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', () => {
      calls += 1;
      return Promise.reject(new TypeError('network error'));
    });
    await expect(apiRequest('POST', '/api/a', { body: {}, schema: anything })).rejects.toEqual(
      new ApiError(0, 'network', 'The server could not be reached'),
    );
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      apiRequest('PUT', '/api/a', { body: {}, schema: anything }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
  });
});
