import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { queryKeys, refreshOwnerData } from '../lib/query-keys.ts';
import { applyChanges, readChange, readChanges } from './live-updates.ts';

describe('readChange', () => {
  it('reads a change, including an action this page does not know', () => {
    expect(readChange('{"id":7,"action":"edited","clientId":"c1"}')).toEqual({
      id: 7,
      action: 'edited',
      clientId: 'c1',
    });
    expect(readChange('{"id":8,"action":"merged","clientId":null,"extra":1}')).toEqual({
      id: 8,
      action: 'merged',
      clientId: null,
    });
  });

  it('gives null for data it cannot read, so the page fetches everything', () => {
    for (const data of [
      'not json',
      'null',
      '[]',
      '{"action":"edited","clientId":null}',
      '{"id":"7","action":"edited","clientId":null}',
      '{"id":7,"clientId":null}',
      '{"id":7,"action":"edited"}',
      '{"id":7,"action":"edited","clientId":5}',
    ]) {
      expect(readChange(data), data).toBeNull();
    }
  });
});

describe('readChanges', () => {
  it('reads several changes sent as one', () => {
    expect(
      readChanges('{"id":12,"count":3,"deleted":["c1"],"settingsChanged":false,"extra":1}'),
    ).toEqual({ id: 12, count: 3, deleted: ['c1'], settingsChanged: false });
  });

  it('gives null for data it cannot read, so the page fetches everything', () => {
    for (const data of [
      'not json',
      'null',
      '{"count":3,"deleted":[],"settingsChanged":false}',
      '{"id":12,"deleted":[],"settingsChanged":false}',
      '{"id":12,"count":3,"settingsChanged":false}',
      '{"id":12,"count":3,"deleted":"c1","settingsChanged":false}',
      '{"id":12,"count":3,"deleted":[7],"settingsChanged":false}',
      '{"id":12,"count":3,"deleted":[]}',
      '{"id":12,"count":3,"deleted":[],"settingsChanged":"no"}',
    ]) {
      expect(readChanges(data), data).toBeNull();
    }
  });
});

/** One key of each kind the key module builds, with made-up arguments. */
function everyKey(): (readonly unknown[])[] {
  const keys: (readonly unknown[])[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) keys.push(value);
    else if (typeof value === 'function')
      keys.push((value as (...args: string[]) => unknown[])('c1', 'USD', 'x'));
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(queryKeys);
  return keys;
}

function cacheWithEveryKey(): QueryClient {
  const queryClient = new QueryClient();
  for (const key of everyKey()) queryClient.setQueryData(key, 'kept');
  return queryClient;
}

const invalidatedRoots = (queryClient: QueryClient) =>
  new Set(
    queryClient
      .getQueryCache()
      .getAll()
      .filter((query) => query.state.isInvalidated)
      .map((query) => query.queryKey[0]),
  );

describe('what a change refreshes', () => {
  it('refreshes every group that follows the owner’s data, and only those', async () => {
    const queryClient = cacheWithEveryKey();
    // A new group of keys must be placed on one side or the other here, on purpose.
    const allRoots = new Set(everyKey().map((key) => key[0]));
    expect(allRoots).toEqual(
      new Set([
        ...['clients', 'ledger', 'statements', 'reminders', 'client-links', 'overview'],
        ...['session', 'settings', 'deleted-client', 'bank', 'account', 'admin', 'tokens'],
        'books',
      ]),
    );
    await refreshOwnerData(queryClient);
    expect(invalidatedRoots(queryClient)).toEqual(
      new Set([
        ...['clients', 'ledger', 'statements', 'reminders', 'client-links', 'overview'],
        'books',
      ]),
    );
    // The overview sums the clients: it refreshes whenever the list does.
    expect(queryClient.getQueryState(queryKeys.overview.summary)?.isInvalidated).toBe(true);
    // An open activity page shows each change as it is made (issue 59).
    expect(queryClient.getQueryState(queryKeys.books.activity('c1'))?.isInvalidated).toBe(true);
  });

  it('fetches the settings and the session again when the settings changed', () => {
    const queryClient = cacheWithEveryKey();
    applyChanges(queryClient, { settingsChanged: true, deleted: [] });
    expect(invalidatedRoots(queryClient)).toEqual(new Set(['settings', 'session']));
    expect(queryClient.getQueryState(queryKeys.settings.reminderPlan)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(queryKeys.settings.public)?.isInvalidated).toBe(false);
  });

  it('tells an open page of a client deleted elsewhere, and leaves the settings be', () => {
    const queryClient = cacheWithEveryKey();
    applyChanges(queryClient, { settingsChanged: false, deleted: ['c2'] });
    expect(queryClient.getQueryData(queryKeys.deletedClient('c2'))).toBe(true);
    expect(queryClient.getQueryData(queryKeys.deletedClient('c1'))).toBe('kept');
    expect(invalidatedRoots(queryClient)).toEqual(new Set());
  });
});
