import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '../../shared/api-routes.ts';
import { ApiError, apiAddress, callApi } from './api-client.ts';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const newClient = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+1 555 010 0000',
  currency: 'USD',
} as const;

describe('callApi', () => {
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
    await expect(callApi(apiRoutes.addClient, { body: newClient })).resolves.toEqual({
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
    await callApi(apiRoutes.addClient, { body: newClient });
    await callApi(apiRoutes.addClient, { body: newClient });
    await callApi(apiRoutes.saveLanguage, { body: { language: null } });
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBeNull();
  });

  it('gives up with a network error once the retries are spent, and never retries other methods', async () => {
    let calls = 0;
    vi.stubGlobal('fetch', () => {
      calls += 1;
      return Promise.reject(new TypeError('network error'));
    });
    await expect(callApi(apiRoutes.addClient, { body: newClient })).rejects.toEqual(
      new ApiError(0, 'network', 'The server could not be reached'),
    );
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      callApi(apiRoutes.saveLanguage, { body: { language: null } }),
    ).rejects.toBeInstanceOf(ApiError);
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
    await expect(callApi(apiRoutes.addClient, { body: newClient })).rejects.toEqual(
      new ApiError(400, 'validation', 'Check the form.', { email: 'Enter an e-mail.' }),
    );
  });

  it('says which status came back when an error answer is not ours (a proxy page)', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = await callApi(apiRoutes.session).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 502, code: 'internal' });
    expect((error as ApiError).message).toContain('502');
  });

  it('keeps the message of an error code this page does not know (a newer server)', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(answer(409, { error: { code: 'newer_code', message: 'Try later.' } })),
    );
    await expect(callApi(apiRoutes.session)).rejects.toEqual(
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
      await expect(callApi(apiRoutes.session)).rejects.toMatchObject({ code: 'internal' });
    }
  });

  it('gives a 204 as undefined and refuses any other success that carries no JSON', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(null, { status: 204 })));
    await expect(
      callApi(apiRoutes.deleteClient, { params: { id: 'c1' } }),
    ).resolves.toBeUndefined();
    for (const body of ['<html>sign in to the Wi-Fi</html>', '', 'null']) {
      vi.stubGlobal('fetch', () => Promise.resolve(new Response(body, { status: 200 })));
      await expect(callApi(apiRoutes.session), JSON.stringify(body)).rejects.toEqual(
        new ApiError(200, 'internal', 'The server sent an answer we could not read'),
      );
    }
  });
});

describe('the address of a call', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('fills in the path parameters, encoded, and sends the query values that are set', async () => {
    const called: { path: string; method: string | undefined }[] = [];
    vi.stubGlobal('fetch', (path: string, init: RequestInit) => {
      called.push({ path, method: init.method });
      return Promise.resolve(answer(201, {}));
    });
    await callApi(apiRoutes.voidEntry, {
      params: { id: 'a/b c', entryId: 7 },
      body: { reason: 'typo' },
    });
    await callApi(apiRoutes.clientList, { query: { q: '', sort: 'name', cursor: undefined } });
    await callApi(apiRoutes.restore, { body: {}, query: { dryRun: 'true' } });
    expect(called).toEqual([
      { path: '/api/clients/a%2Fb%20c/entries/7/void', method: 'POST' },
      { path: '/api/clients?sort=name', method: 'GET' },
      { path: '/api/restore?dryRun=true', method: 'POST' },
    ]);
    expect(
      apiAddress(apiRoutes.statementPdf, {
        params: { id: 'c1' },
        query: { from: '2026-01-01', to: '2026-03-31', lang: 'ko' },
      }),
    ).toBe('/api/clients/c1/statement.pdf?from=2026-01-01&to=2026-03-31&lang=ko');
  });

  it('does not compile with a wrong route, parameter, body or answer type', () => {
    // Only the compiler runs these (npm run typecheck); each line must be refused by it.
    const refused = () => {
      // @ts-expect-error: no such route
      void callApi(apiRoutes.clientBalance, { params: { id: 'c1' } });
      // @ts-expect-error: the path has an :id to fill in
      void callApi(apiRoutes.updateBalance, { body: { balance: 100, previousBalance: 0 } });
      // @ts-expect-error: a balance is a number of minor units, not text
      void callApi(apiRoutes.updateBalance, { params: { id: 'c1' }, body: { balance: '1.00' } });
      // @ts-expect-error: the overview takes no body
      void callApi(apiRoutes.overview, { body: {} });
      // @ts-expect-error: a new client needs its names, e-mail, phone and currency
      void callApi(apiRoutes.addClient);
      void callApi(apiRoutes.client, { params: { id: 'c1' } }).then((client) => {
        // @ts-expect-error: a client has a balance in minor units, not a total
        void client.total;
      });
    };
    expect(refused).toBeTypeOf('function');
  });
});
