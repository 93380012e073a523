import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ChangeEvent, ChangesSummary } from '../../shared/schemas/events.ts';
import { apiAddress } from '../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../lib/query-keys.ts';
import { apiRoutes } from '../../shared/api-routes.ts';

/** A message's data as an object, or null when it is not one. */
function parseObject(data: string): object | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/** A `change` message's data, or null for one this page cannot read (then it fetches all). */
export function readChange(data: string): ChangeEvent | null {
  const value = parseObject(data);
  if (value === null) return null;
  if (!('id' in value) || typeof value.id !== 'number') return null;
  if (!('action' in value) || typeof value.action !== 'string') return null;
  if (!('clientId' in value)) return null;
  const { id, action, clientId } = value;
  if (clientId !== null && typeof clientId !== 'string') return null;
  return { id, action, clientId };
}

/** A `changes` message's data (several changes at once), or null for one this page cannot read. */
export function readChanges(data: string): ChangesSummary | null {
  const value = parseObject(data);
  if (value === null) return null;
  if (!('id' in value) || typeof value.id !== 'number') return null;
  if (!('count' in value) || typeof value.count !== 'number') return null;
  if (!('deleted' in value) || !Array.isArray(value.deleted)) return null;
  if (!('settingsChanged' in value) || typeof value.settingsChanged !== 'boolean') return null;
  const { id, count, deleted, settingsChanged } = value;
  if (!deleted.every((clientId) => typeof clientId === 'string')) return null;
  return { id, count, deleted, settingsChanged };
}

/**
 * What a change (or several) tells this tab beyond "the owner's data changed": the settings are
 * fetched again if they changed (with the session, which carries the main currency and the
 * first-run setup), and an open page of a deleted client is told so. The owner's data itself
 * is refreshed by the caller, once for a burst (`refreshOwnerData`).
 */
export function applyChanges(
  queryClient: QueryClient,
  { settingsChanged, deleted }: Pick<ChangesSummary, 'settingsChanged' | 'deleted'>,
): void {
  if (settingsChanged) {
    void queryClient.invalidateQueries({ queryKey: queryKeys.settings.mine });
    void queryClient.invalidateQueries({ queryKey: queryKeys.session });
  }
  for (const clientId of deleted) queryClient.setQueryData(queryKeys.deletedClient(clientId), true);
}

export type LiveStatus = 'connecting' | 'live' | 'offline';

/** After the browser gives up on a stream (an error answer rather than no answer), try again. */
const reopenDelayMs = 5000;
const burstWindowMs = 50;

/**
 * One live stream per signed-in tab: every change of the owner's data, made in another tab or
 * on another device, refreshes what this tab shows. The browser resumes a dropped stream with
 * Last-Event-ID, so nothing is missed. `bookId` is the book the session acts in (null: signed
 * out, or in no book: no stream); another book is another stream, with its own event ids.
 */
export function useLiveUpdates(bookId: string | null): LiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [attempt, setAttempt] = useState(0);
  // A new EventSource does not send Last-Event-ID by itself; we carry it across reopenings.
  const lastEventId = useRef<string | null>(null);
  const streamedBook = useRef<string | null>(bookId);
  const enabled = bookId !== null;

  // The system's word on the network: while it says offline, no stream is attempted.
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const goOnline = () => setOnline(true);
    const goOffline = () => setOnline(false);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    return () => {
      window.removeEventListener('online', goOnline);
    };
  }, []);

  useEffect(() => {
    if (!enabled || !online) return;
    // Another book's event ids mean nothing in this one.
    if (streamedBook.current !== bookId) {
      streamedBook.current = bookId;
      lastEventId.current = null;
    }
    const resume = lastEventId.current;
    // Several changes that reach this tab together come as one message: it refreshes once anyway.
    const source = new EventSource(
      apiAddress(apiRoutes.liveEvents, {
        query: { summarize: 'true', lastEventId: resume ?? undefined },
      }),
    );
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshAll = () =>
      void queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== queryKeys.session[0],
      });

    const remember = (message: MessageEvent<string>) => {
      if (message.lastEventId) lastEventId.current = message.lastEventId;
    };

    // An import can bring thousands of events at once: refresh once for a burst, not per event.
    let refreshTimer: ReturnType<typeof setTimeout> | undefined;
    const refreshOwnerDataSoon = () => {
      if (refreshTimer !== undefined) return;
      refreshTimer = setTimeout(() => {
        refreshTimer = undefined;
        void refreshOwnerData(queryClient);
      }, burstWindowMs);
    };

    source.onopen = () => setStatus('live');
    source.onerror = () => {
      setStatus('offline');
      if (source.readyState === EventSource.CLOSED) {
        reopenTimer = setTimeout(() => setAttempt((value) => value + 1), reopenDelayMs);
      }
    };
    // A fresh stream starts after whatever this tab loaded; anything in between is fetched again.
    source.addEventListener('ready', (message: MessageEvent<string>) => {
      remember(message);
      refreshAll();
    });
    source.addEventListener('reload', (message: MessageEvent<string>) => {
      remember(message);
      refreshAll();
    });
    // One change or several: what it says of the settings and deleted clients, then the lists,
    // the overview and any open client page or statement refreshed.
    const apply = (changes: Pick<ChangesSummary, 'settingsChanged' | 'deleted'>) => {
      applyChanges(queryClient, changes);
      refreshOwnerDataSoon();
    };
    source.addEventListener('change', (message: MessageEvent<string>) => {
      remember(message);
      const change = readChange(message.data);
      if (!change) return refreshAll();
      const { action, clientId } = change;
      apply({
        settingsChanged: action === 'settings_changed',
        deleted: action === 'deleted' && clientId ? [clientId] : [],
      });
    });
    source.addEventListener('changes', (message: MessageEvent<string>) => {
      remember(message);
      const changes = readChanges(message.data);
      if (!changes) return refreshAll();
      apply(changes);
    });
    // The session ended, or the member was removed from the book or given another role: the
    // session asked again leads to /login with a message, to the no-book page, or to the screens
    // of the new role, whose stream then opens again (signed out or bookless, none opens).
    source.addEventListener('end', () => {
      source.close();
      void queryClient
        .invalidateQueries({ queryKey: queryKeys.session })
        .then(() => setAttempt((value) => value + 1));
    });
    return () => {
      clearTimeout(reopenTimer);
      clearTimeout(refreshTimer);
      source.close();
    };
  }, [enabled, bookId, online, attempt, queryClient]);

  return online ? status : 'offline';
}
