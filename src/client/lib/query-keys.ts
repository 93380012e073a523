import type { QueryClient } from '@tanstack/react-query';
import type { ClientListQuery } from '../../shared/schemas/clients.ts';
import type { Currency } from '../../shared/money.ts';
import type { Locale } from '../../shared/locales.ts';

/** The client list's filters, search and sort: everything of its query but the page. */
export type ClientListParams = Omit<ClientListQuery, 'cursor' | 'limit'>;

/**
 * Every query key of the app, built here and nowhere else, one group per feature as
 * src/client/features has them. A key's first element names its group, so a group can be
 * refreshed whole by its root; a refresh names the group it means (below, and in
 * app/live-updates.ts), never a prefix another feature's key happens to share.
 */
export const queryKeys = {
  session: ['session'] as const,
  settings: {
    public: ['settings', 'public'] as const,
    /** Refreshing it refreshes the reminder plan too: a saved plan arrives as `settings_changed`. */
    mine: ['settings', 'mine'] as const,
    reminderPlan: ['settings', 'mine', 'reminder-plan'] as const,
  },
  clients: {
    root: ['clients'] as const,
    list: (params: ClientListParams) => ['clients', 'list', params] as const,
    /** The bank import's search for a payer among one currency's clients. */
    search: (currency: Currency, q: string) => ['clients', 'search', currency, q] as const,
    /** The clients an owner may give a collector (People in Settings), found by name. */
    byName: (q: string) => ['clients', 'by-name', q] as const,
    one: (id: string) => ['clients', 'one', id] as const,
    history: (id: string) => ['clients', 'history', id] as const,
  },
  /**
   * Set (never fetched) by the live stream when a client is deleted elsewhere, so an open page
   * can say so; outside every group a refresh reaches, which would set it back to false.
   */
  deletedClient: (id: string) => ['deleted-client', id] as const,
  ledger: {
    root: ['ledger'] as const,
    entries: (clientId: string) => ['ledger', 'entries', clientId] as const,
    openings: (clientId: string) => ['ledger', 'openings', clientId] as const,
  },
  statements: {
    root: ['statements'] as const,
    one: (clientId: string, from: string, to: string) =>
      ['statements', clientId, from, to] as const,
  },
  reminders: {
    root: ['reminders'] as const,
    preview: ['reminders', 'preview'] as const,
    failed: ['reminders', 'failed'] as const,
    dueToday: ['reminders', 'due-today'] as const,
    ofClient: (clientId: string) => ['reminders', 'client', clientId] as const,
  },
  clientLinks: {
    root: ['client-links'] as const,
    ofClient: (clientId: string) => ['client-links', clientId] as const,
  },
  overview: {
    root: ['overview'] as const,
    summary: ['overview', 'summary'] as const,
    /** The ageing of every client's debt, shown under the client list. */
    ageing: ['overview', 'ageing'] as const,
  },
  bank: {
    layouts: ['bank', 'layouts'] as const,
    rules: ['bank', 'rules'] as const,
  },
  account: {
    sessions: ['account', 'sessions'] as const,
    sessionsIn: (locale: Locale) => ['account', 'sessions', locale] as const,
    clientLinks: ['account', 'client-links'] as const,
    clientLinksIn: (locale: Locale) => ['account', 'client-links', locale] as const,
  },
  admin: { users: ['admin', 'users'] as const },
  books: {
    members: ['books', 'members'] as const,
    invitation: (token: string) => ['books', 'invitation', token] as const,
    /** The book's activity, every filter of it; `activity` one person's or everyone's (null). */
    activityRoot: ['books', 'activity'] as const,
    activity: (person: string | null) => ['books', 'activity', person] as const,
    lockDate: ['books', 'lock-date'] as const,
  },
  tokens: ['tokens'] as const,
};

/**
 * The groups whose answers follow the owner's data: a change of a client, an entry, a
 * reminder, a link's opening or the rates (made here, or reported by the live stream) may
 * change any of them, the overview's sums and an open statement included. Refreshed together,
 * so the dashboard never shows the list changed and its totals not yet.
 */
const ownerDataGroups = [
  queryKeys.clients.root,
  queryKeys.ledger.root,
  queryKeys.statements.root,
  queryKeys.reminders.root,
  queryKeys.clientLinks.root,
  queryKeys.overview.root,
  // The book's own pages (its activity, members and lock date) follow every change too.
  queryKeys.books.activityRoot,
] as const;

const ownerDataRoots = new Set<unknown>(ownerDataGroups.map((key) => key[0]));

/** Refreshes every query of `ownerDataGroups` (the ones shown now fetch again at once). */
export function refreshOwnerData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (query) => ownerDataRoots.has(query.queryKey[0]),
  });
}

/** Forgets every query but the session's: what was kept belonged to whoever was signed in. */
export function forgetAllButSession(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.session[0],
  });
}
