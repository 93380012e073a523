import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client.ts';

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
    await expect(apiRequest('POST', '/api/clients', { body: {} })).resolves.toEqual({
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
    await apiRequest('POST', '/api/a', { body: {} });
    await apiRequest('POST', '/api/a', { body: {} });
    await apiRequest('PUT', '/api/a', { body: {} });
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBeNull();
  });

  it('gives up with a network error once the retries are spent, and never retries other methods', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', () => {
      calls += 1;
      return Promise.reject(new TypeError('network error'));
    });
    await expect(apiRequest('POST', '/api/a', { body: {} })).rejects.toEqual(
      new ApiError(0, 'network', 'The server could not be reached'),
    );
    expect(calls).toBe(3);
    calls = 0;
    await expect(apiRequest('PUT', '/api/a', { body: {} })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toBe(1);
  });

  it('gives the API error an answer carries, with the fields it names', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        answer(400, {
          error: {
            code: 'validation',
            message: 'Check the form.',
            fields: { email: 'Enter an e-mail.' },
          },
        }),
      ),
    );
    await expect(apiRequest('POST', '/api/a', { body: {} })).rejects.toEqual(
      new ApiError(400, 'validation', 'Check the form.', { email: 'Enter an e-mail.' }),
    );
  });

  it('says which status came back when an error answer is not ours (a proxy page)', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = await apiRequest('GET', '/api/a').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'internal' });
    expect((error as ApiError).message).toContain('502');
  });

  it('keeps the message of an error code this page does not know (a newer server)', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(answer(409, { error: { code: 'newer_code', message: 'Try later.' } })),
    );
    await expect(apiRequest('GET', '/api/a')).rejects.toEqual(
      new ApiError(409, 'internal', 'Try later.'),
    );
  });

  it('refuses an error body that is not of our API', async () => {
    const bodies = [
      { error: { code: 7, message: 'x' } },
      { error: { code: 'validation', message: 3 } },
      { error: { code: 'validation', message: 'x', fields: ['x'] } },
      { error: { code: 'validation', message: 'x', fields: { email: 1 } } },
      { message: 'x' },
    ];
    for (const body of bodies) {
      vi.stubGlobal('fetch', () => Promise.resolve(answer(400, body)));
      await expect(apiRequest('GET', '/api/a')).rejects.toMatchObject({ code: 'internal' });
    }
  });

  it('gives a 204 as undefined and refuses any other success that carries no JSON', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(null, { status: 204 })));
    await expect(apiRequest('DELETE', '/api/a')).resolves.toBeUndefined();
    for (const body of ['<html>sign in to the Wi-Fi</html>', '', 'null']) {
      vi.stubGlobal('fetch', () => Promise.resolve(new Response(body, { status: 200 })));
      await expect(apiRequest('GET', '/api/a'), JSON.stringify(body)).rejects.toEqual(
        new ApiError(200, 'internal', 'The server sent an answer we could not read'),
      );
    }
  });
});
