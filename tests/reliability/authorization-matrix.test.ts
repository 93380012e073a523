import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payerRuleId } from '../../src/server/modules/bank/bank-matching.ts';
import { sessionCookieName } from '../../src/server/modules/auth/session.ts';
import { apiRoutes as describedRoutes, type Route } from '../../src/shared/api-routes.ts';
import { mayDo } from '../../src/shared/book-access.ts';
import { bookRoles, type BookRole, type Books } from '../../src/shared/schemas/books.ts';
import type { Client } from '../../src/shared/schemas/clients.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../auth.ts';
import { buildClient, buildExportFile } from '../factories.ts';
import { snapshotDatabase, type DatabaseSnapshot } from './database-snapshot.ts';

// Matchers typed as unknown, so they can sit in expected objects.
const anyText: unknown = expect.any(String);

/** What each route is given in this test: the owner's own data, so protected calls are valid. */
interface Context {
  ownerEmail: string;
  clientId: string;
  clientVersion: number;
  /** The client's opening balance. */
  entryId: number;
  /** One of the owner's access tokens. */
  tokenId: string;
  /** Another session of the owner's (not the one the tests send), as the session list shows it. */
  sessionId: string;
  /** An account that is neither the owner nor the other owner, for the administrator's routes. */
  targetUserId: string;
  /** A bank import of the owner's, confirmed. */
  bankBatchId: string;
  /** A client link of the owner's. */
  linkId: string;
  /** The book all of the above belong to. */
  bookId: string;
  /** A second client of the book, the one a collector is given (never the one above). */
  assignedClientId: string;
  /** A viewer of the book, whom the owner's member routes change and remove. */
  memberId: string;
  /** A pending invitation to the book, which the owner's call revokes. */
  invitationId: string;
  /** The secret of another pending invitation, whose page anyone may see. */
  invitationToken: string;
  /** The secret of a third, which the public check accepts by choosing a password. */
  acceptToken: string;
}

interface Sample {
  payload?: unknown;
  query?: string;
  /** What `:id` (or `:token`) stands for, when it is not the owner's client. */
  id?: string;
}

interface SignedInDeclaration {
  sample?: (context: Context) => Sample;
  /** What `:id` stands for; the owner's client unless said (`:userId`: the book's viewer). */
  id?: (context: Context) => string;
  /** Managed only from a signed-in session: a bearer token is refused 403. */
  sessionOnly?: true;
}

/**
 * `admin` routes are the instance administrator's (the first account: the owner here), whatever
 * the caller's role in a book. A `protected` route names the roles of a book's members that may
 * call it: written here by hand, and checked against the routes' declared access
 * (src/shared/api-routes.ts), so neither can change without the other.
 */
type Declaration =
  | { access: 'public'; status: number; sample?: (context: Context) => Sample }
  | (SignedInDeclaration & { access: 'admin' })
  | (SignedInDeclaration & { access: 'protected'; roles: readonly BookRole[] });

// The roles a route lets in, by name, for the declarations below.
const everyone = ['owner', 'bookkeeper', 'collector', 'viewer'] as const;
const notCollector = ['owner', 'bookkeeper', 'viewer'] as const;
const notViewer = ['owner', 'bookkeeper', 'collector'] as const;
const keepers = ['owner', 'bookkeeper'] as const;
const ownerOnly = ['owner'] as const;

const settingsBody = {
  preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
  rates: [{ currency: 'KRW', usdPerUnit: '0.00075', date: '2024-05-01' }],
};

const bankAccount = { accountLabel: 'Matrix bank', currency: 'USD' };
const bankMapping = { date: 0, description: 1, amount: 2, dateOrder: 'YMD', decimal: '.' };
const bankFile = Buffer.from('Date,Text,Amount\n2024-05-02,MATRIX PAYER,1.00\n').toString('base64');
const bankConfirmBody = (clientId: string) => ({
  ...bankAccount,
  lines: [
    {
      line: 2,
      date: '2024-05-02',
      amount: 100,
      description: 'MATRIX PAYER',
      reference: '',
      balance: null,
      allocations: [{ clientId, amount: 100 }],
    },
  ],
});

/**
 * Every API route, declared public or protected, with a request that is valid apart from who
 * sends it. A route added to the server but not here, or listed here but gone, fails the test.
 * (HEAD routes are Fastify's mirrors of GET routes and take their GET's declaration.)
 */
const matrix: Record<string, Declaration> = {
  'GET /api/health': { access: 'public', status: 200 },
  'GET /api/auth/session': { access: 'public', status: 200 },
  'POST /api/auth/join': {
    access: 'public',
    status: 201,
    sample: () => ({ payload: { email: uniqueEmail('matrix'), password: strongPassword } }),
  },
  'POST /api/auth/login': {
    access: 'public',
    status: 200,
    sample: ({ ownerEmail }) => ({ payload: { email: ownerEmail, password: strongPassword } }),
  },
  'POST /api/auth/logout': { access: 'public', status: 204 },
  'GET /api/settings/public': { access: 'public', status: 200 },
  'GET /api/openapi.json': { access: 'public', status: 200 },
  'GET /api/docs': { access: 'public', status: 200 },
  'GET /api/docs/:file': { access: 'public', status: 200 },

  // A link nobody was given: refused, whoever asks.
  'POST /api/auth/password-reset': {
    access: 'public',
    status: 400,
    sample: () => ({ payload: { token: 'A'.repeat(43), password: strongPassword } }),
  },

  // No mail server in this test: refused as not set up (503), whoever asks; the answer with one
  // is tested in forgot-password.routes.test.ts.
  'POST /api/auth/forgot-password': {
    access: 'public',
    status: 503,
    sample: () => ({ payload: { email: uniqueEmail('matrix-forgot') } }),
  },

  'GET /api/account/sessions': { access: 'protected', roles: everyone, sessionOnly: true },
  // Before the routes that end the owner's other sessions.
  'DELETE /api/account/sessions/:id': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: ({ sessionId }) => ({ id: sessionId }),
  },
  'POST /api/account/sessions/end-others': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
  },
  // The same password again: the owner's next calls still know it.
  'POST /api/account/password': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: () => ({ payload: { currentPassword: strongPassword, newPassword: strongPassword } }),
  },
  'POST /api/account/email': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: () => ({ payload: { email: uniqueEmail('matrix-moved'), password: strongPassword } }),
  },
  'GET /api/account/client-links': { access: 'protected', roles: keepers, sessionOnly: true },
  'POST /api/account/client-links/revoke': {
    access: 'protected',
    roles: keepers,
    sessionOnly: true,
    sample: ({ linkId }) => ({ payload: { ids: [linkId] } }),
  },
  // Checked on its own below: any caller's own call ends that caller's account.
  'DELETE /api/account': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: () => ({ payload: { password: strongPassword } }),
  },

  'GET /api/admin/users': { access: 'admin', sessionOnly: true },
  'POST /api/admin/users/:id/disable': {
    access: 'admin',
    sessionOnly: true,
    sample: ({ targetUserId }) => ({ id: targetUserId }),
  },
  'POST /api/admin/users/:id/enable': {
    access: 'admin',
    sessionOnly: true,
    sample: ({ targetUserId }) => ({ id: targetUserId }),
  },
  'POST /api/admin/users/:id/password-reset': {
    access: 'admin',
    sessionOnly: true,
    sample: ({ targetUserId }) => ({ id: targetUserId }),
  },
  'POST /api/admin/invitations': {
    access: 'admin',
    sessionOnly: true,
    sample: () => ({ payload: { email: uniqueEmail('matrix-invited') } }),
  },

  'GET /api/settings': { access: 'protected', roles: everyone },
  'PUT /api/settings': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: settingsBody }),
  },
  'PUT /api/settings/language': {
    access: 'protected',
    roles: everyone,
    sample: () => ({ payload: { language: 'ko' } }),
  },
  'PUT /api/settings/setup': {
    access: 'protected',
    roles: ownerOnly,
    sample: () => ({ payload: { outcome: 'skipped' } }),
  },
  // Before any route gives the other owner a client: a restore goes only into an empty account.
  'POST /api/restore': {
    access: 'protected',
    roles: ownerOnly,
    sample: () => ({ query: 'dryRun=true', payload: buildExportFile() }),
  },
  'GET /api/events': { access: 'protected', roles: everyone },
  'GET /api/clients': {
    access: 'protected',
    roles: everyone,
    sample: () => ({ query: 'sort=balance&limit=10' }),
  },
  'POST /api/clients': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: buildClient() }),
  },
  'GET /api/ageing': { access: 'protected', roles: notCollector },
  'GET /api/overview': { access: 'protected', roles: notCollector },
  'GET /api/clients/:id': { access: 'protected', roles: everyone },
  'GET /api/clients/:id/history': { access: 'protected', roles: everyone },
  'PUT /api/clients/:id': {
    access: 'protected',
    roles: keepers,
    sample: ({ clientVersion }) => ({
      payload: { ...buildClient({ balance: 1 }), version: clientVersion },
    }),
  },
  'PATCH /api/clients/:id/balance': {
    access: 'protected',
    roles: keepers,
    sample: ({ clientVersion }) => ({ payload: { balance: 777, version: clientVersion } }),
  },
  'GET /api/clients/:id/entries': { access: 'protected', roles: everyone },
  'POST /api/clients/:id/entries': {
    access: 'protected',
    roles: notViewer,
    sample: () => ({ payload: { kind: 'payment', amount: 100, note: 'matrix' } }),
  },
  'POST /api/clients/:id/entries/:entryId/void': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: { reason: 'matrix' } }),
  },
  'GET /api/clients/:id/statement': {
    access: 'protected',
    roles: everyone,
    sample: () => ({ query: 'from=2024-01-01&to=2024-12-31' }),
  },
  'GET /api/clients/:id/statement.csv': { access: 'protected', roles: everyone },
  'GET /api/clients/:id/statement.pdf': { access: 'protected', roles: everyone },
  // No mail server in this test: the owner's own call is refused as not set up (503), after the
  // session and the client were accepted.
  'POST /api/clients/:id/statement/send': {
    access: 'protected',
    roles: notViewer,
    sample: () => ({ payload: { subject: 'Statement', message: 'Please find it attached.' } }),
  },
  'PUT /api/clients/:id/language': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: { language: 'ko' } }),
  },
  'GET /api/clients/:id/link': { access: 'protected', roles: everyone },
  'POST /api/clients/:id/link': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: { expiresInDays: 30 } }),
  },
  // After the link is made: the owner's own call revokes it.
  'DELETE /api/clients/:id/link': { access: 'protected', roles: keepers },
  'GET /api/reminders/plan': { access: 'protected', roles: everyone },
  'PUT /api/reminders/plan': {
    access: 'protected',
    roles: keepers,
    sample: () => ({
      payload: {
        enabled: false,
        daysBefore: 3,
        onDueDate: true,
        overdueEveryDays: 7,
        overdueMax: 3,
        attachPdf: false,
        timeZone: 'UTC',
      },
    }),
  },
  'GET /api/reminders': { access: 'protected', roles: notCollector },
  // A collector's list holds their own clients only.
  'GET /api/reminders/due-today': { access: 'protected', roles: everyone },
  'GET /api/reminders/preview': { access: 'protected', roles: notCollector },
  'GET /api/clients/:id/reminders': { access: 'protected', roles: everyone },
  'PUT /api/clients/:id/reminders': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: { enabled: true } }),
  },
  // Reminders are off: nothing is due, so the owner's own call is refused (409) after the session
  // and the client were accepted.
  'POST /api/reminders/due-today/:id/sent': {
    access: 'protected',
    roles: notViewer,
    sample: ({ entryId }) => ({ payload: { charges: [{ entryId, step: 'due' }] } }),
  },
  'POST /api/bank/preview': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: { ...bankAccount, mapping: bankMapping, file: bankFile } }),
  },
  // The client is in the body: another owner's call is checked on its own below.
  'POST /api/bank/confirm': {
    access: 'protected',
    roles: keepers,
    sample: ({ clientId }) => ({ payload: bankConfirmBody(clientId) }),
  },
  'GET /api/bank/rules': { access: 'protected', roles: keepers },
  // The payer the first confirm learned: before the undo, which forgets what its import taught.
  'DELETE /api/bank/rules/:id': {
    access: 'protected',
    roles: keepers,
    id: () => payerRuleId('matrix payer'),
  },
  'POST /api/bank/batches/:id/undo': {
    access: 'protected',
    roles: keepers,
    id: ({ bankBatchId }) => bankBatchId,
  },
  'GET /api/bank/layouts': { access: 'protected', roles: keepers },
  // Last of the client's routes: the owner's own call deletes the client.
  'DELETE /api/clients/:id': { access: 'protected', roles: keepers },
  'GET /api/entries/export.csv': { access: 'protected', roles: notCollector },
  'GET /api/clients/export.csv': { access: 'protected', roles: notCollector },
  'GET /api/export.json': { access: 'protected', roles: notCollector },
  'POST /api/clients/import': {
    access: 'protected',
    roles: keepers,
    sample: () => ({ payload: { rows: [buildClient()], dryRun: false, skipDuplicates: false } }),
  },
  'GET /api/tokens': { access: 'protected', roles: everyone, sessionOnly: true },
  'POST /api/tokens': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: () => ({ payload: { name: 'matrix', access: 'read' } }),
  },
  // Revokes the owner's token last of all (the matrix's own bearer token is another one).
  'DELETE /api/tokens/:id': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    id: ({ tokenId }) => tokenId,
  },

  // The person's books: theirs in any role, whatever book they act in.
  'GET /api/books': { access: 'protected', roles: everyone },
  // Makes a book and acts in it: the next route goes back to the book the matrix works in.
  'POST /api/books': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: () => ({ payload: { name: 'Matrix book' } }),
  },
  // The book is in the body: another owner's call is checked on its own below.
  'POST /api/books/current': {
    access: 'protected',
    roles: everyone,
    sessionOnly: true,
    sample: ({ bookId }) => ({ payload: { bookId } }),
  },
  'GET /api/book/members': { access: 'protected', roles: ownerOnly },
  // Who keeps the book is changed from a session only: a token could let in an owner who
  // outlives its revocation.
  'POST /api/book/invitations': {
    access: 'protected',
    roles: ownerOnly,
    sessionOnly: true,
    sample: () => ({ payload: { email: uniqueEmail('matrix-member'), role: 'viewer' } }),
  },
  'DELETE /api/book/invitations/:id': {
    access: 'protected',
    roles: ownerOnly,
    sessionOnly: true,
    id: ({ invitationId }) => invitationId,
  },
  // The book's viewer: made a bookkeeper, then removed, by the owner's own calls.
  'PUT /api/book/members/:userId': {
    access: 'protected',
    roles: ownerOnly,
    sessionOnly: true,
    sample: () => ({ payload: { role: 'bookkeeper' } }),
  },
  'DELETE /api/book/members/:userId': {
    access: 'protected',
    roles: ownerOnly,
    sessionOnly: true,
  },
  // Who did what, and the closed period (issue 59): an owner's, by session or token.
  'GET /api/book/activity': { access: 'protected', roles: ownerOnly },
  'GET /api/book/lock-date': { access: 'protected', roles: ownerOnly },
  'PUT /api/book/lock-date': {
    access: 'protected',
    roles: ownerOnly,
    sample: () => ({ payload: { lockDate: '2020-01-31' } }),
  },
  // The link's secret is the credential: its page answers anyone.
  'GET /api/invitations/:token': {
    access: 'public',
    status: 200,
    sample: ({ invitationToken }) => ({ id: invitationToken }),
  },
  // Accepted once, by choosing a password, in the public routes' check; a signed-in member's call
  // is refused (the invitation was sent to someone else), checked with the roles below.
  'POST /api/invitations/:token/accept': {
    access: 'public',
    status: 200,
    sample: ({ acceptToken }) => ({ id: acceptToken, payload: { password: strongPassword } }),
  },
  // Last of all: the owner's own call deletes the book.
  'DELETE /api/book': { access: 'protected', roles: ownerOnly, sessionOnly: true },
};

/** The live stream never ends by itself: as a signed-in user it is checked in events.routes.test.ts. */
const streams = new Set(['GET /api/events']);
/** Ends the caller's account: checked with an account of its own. */
const endsTheAccount = new Set(['DELETE /api/account']);
/** Ends the session its cookie held: a member's session checks them with a token only. */
const endsTheSession = new Set([
  'POST /api/auth/login',
  'POST /api/auth/join',
  'POST /api/auth/logout',
]);
/** A new password or e-mail revokes the caller's tokens: the caller makes a new one to go on with. */
const endsTheTokens = new Set(['POST /api/account/password', 'POST /api/account/email']);
/** Names the owner's data in its body, not its path: checked on its own. */
const clientInBody = new Set([
  'POST /api/bank/confirm',
  'POST /api/account/client-links/revoke',
  'POST /api/books/current',
]);
/** An id of a book's data (or of a person's session or token) in the path. */
const hasId = (key: string) => /:(id|userId)\b/.test(key);
/** What the owner's own call of a sample answers when it is no success, after who asked was accepted. */
const ownerRefusals: Readonly<Record<string, string>> = {
  // The owner has clients, and a restore goes only into an empty account.
  'POST /api/restore': 'conflict',
  // No mail server in this test.
  'POST /api/clients/:id/statement/send': 'mail_not_configured',
  // Reminders are off: nothing is due.
  'POST /api/reminders/due-today/:id/sent': 'conflict',
};
const missingId = 'AAAAAAAAAAAAAAAAAAAAAA';

const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

interface Person {
  cookie: string;
  email: string;
  userId: string;
}

let testApp: TestApp;
let owner: Person;
let other: Person;
let target: Person;
async function newToken(cookie: string) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: { cookie },
    payload: { name: 'matrix', access: 'read-write' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ token: { id: string }; secret: string }>();
}

async function inject(cookie: string, method: string, url: string, payload?: object) {
  return testApp.app.inject({
    method: method as InjectOptions['method'],
    url,
    headers: { cookie },
    ...(payload ? { payload } : {}),
  });
}

/** Invites someone new to the cookie's book; returns the link's secret. */
async function invitation(
  ownerCookie: string,
  role: BookRole,
  clientIds?: string[],
): Promise<{ id: string; token: string; email: string }> {
  const email = uniqueEmail(`matrix-${role}`);
  const invited = await inject(ownerCookie, 'POST', '/api/book/invitations', {
    email,
    role,
    ...(clientIds ? { clientIds } : {}),
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const answer = invited.json<{ invitation: { id: string }; path: string }>();
  return { id: answer.invitation.id, token: answer.path.split('/').at(-1) ?? '', email };
}

/** A member of the cookie's book in the role, who accepted by choosing a password. */
async function member(ownerCookie: string, role: BookRole, clientIds?: string[]): Promise<Person> {
  const { token, email } = await invitation(ownerCookie, role, clientIds);
  const accepted = await testApp.app.inject({
    method: 'POST',
    url: `/api/invitations/${token}/accept`,
    payload: { password: strongPassword },
  });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const session = accepted.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
  if (!session) throw new Error('accepting set no session cookie');
  return {
    cookie: `${sessionCookieName}=${session}`,
    userId: accepted.json<{ user: { id: string } }>().user.id,
    email,
  };
}

/** A second session of the person's (not the cookie's), as their session list shows it. */
async function secondSession(person: Person): Promise<string> {
  const second = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: person.email, password: strongPassword },
  });
  expect(second.statusCode).toBe(200);
  const sessions = await inject(person.cookie, 'GET', '/api/account/sessions');
  const found = sessions
    .json<{ sessions: { id: string; current: boolean }[] }>()
    .sessions.find((session) => !session.current);
  if (!found) throw new Error('no second session');
  return found.id;
}

/**
 * A book of the person's with everything the samples name: the sample client (its opening
 * balance an entry, paid by a confirmed bank import, with a link), a second client, settings and
 * rates, a viewer, and pending invitations.
 */
async function makeBook(person: Person): Promise<Context> {
  const sessionId = await secondSession(person);
  const added = await inject(
    person.cookie,
    'POST',
    '/api/clients',
    buildClient({ email: 'only.the.owner@example.com', lastName: 'Ownerssecret' }),
  );
  expect(added.statusCode).toBe(201);
  const client = added.json<Client>();
  const assigned = await inject(person.cookie, 'POST', '/api/clients', buildClient());
  expect(assigned.statusCode).toBe(201);
  const entry = await testApp.app.db.kysely
    .selectFrom('entries')
    .select('id')
    .where('client_id', '=', client.id)
    .executeTakeFirstOrThrow();
  const bank = await inject(person.cookie, 'POST', '/api/bank/confirm', {
    ...bankConfirmBody(client.id),
    lines: [{ ...bankConfirmBody(client.id).lines[0], line: 3, date: '2024-05-01' }],
  });
  expect(bank.statusCode, bank.body).toBe(200);
  const link = await inject(person.cookie, 'POST', `/api/clients/${client.id}/link`, {});
  expect(link.statusCode, link.body).toBe(201);
  const linkRow = await testApp.app.db.kysely
    .selectFrom('client_links')
    .select('id')
    .where('client_id', '=', client.id)
    .executeTakeFirstOrThrow();
  const revocable = await newToken(person.cookie);
  const books = await inject(person.cookie, 'GET', '/api/books');
  const bookId = books.json<Books>().current?.id;
  if (!bookId) throw new Error('the person acts in no book');
  const viewer = await member(person.cookie, 'viewer');
  // The book also has settings and rates, so a write by anyone else would show.
  const settings = await inject(person.cookie, 'PUT', '/api/settings', {
    preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: true },
    rates: [{ currency: 'CAD', usdPerUnit: '0.73', date: '2024-06-01' }],
  });
  expect(settings.statusCode).toBe(200);
  return {
    ownerEmail: person.email,
    clientId: client.id,
    clientVersion: client.version,
    entryId: entry.id,
    tokenId: revocable.token.id,
    sessionId,
    targetUserId: target.userId,
    bankBatchId: bank.json<{ batchId: string }>().batchId,
    linkId: linkRow.id,
    bookId,
    assignedClientId: assigned.json<Client>().id,
    memberId: viewer.userId,
    invitationId: (await invitation(person.cookie, 'bookkeeper')).id,
    invitationToken: (await invitation(person.cookie, 'viewer')).token,
    acceptToken: (await invitation(person.cookie, 'viewer')).token,
  };
}

/** Secrets of read-write tokens of the owner and of the other owner. */
let ownerBearer: string;
let otherBearer: string;
let context: Context;

beforeAll(async () => {
  testApp = await buildTestApp();
  owner = await joinAs(testApp.app);
  other = await joinAs(testApp.app);
  target = await joinAs(testApp.app);
  context = await makeBook(owner);
  ownerBearer = (await newToken(owner.cookie)).secret;
  otherBearer = (await newToken(other.cookie)).secret;
});

afterAll(async () => {
  await testApp.close();
});

/** The route's address for a context: `:id` (or `:userId`, `:token`) is `id` when given. */
function urlOf(key: string, sample: Sample, ctx: Context, id?: string): string {
  const [, pattern = ''] = key.split(' ');
  const declaration = matrix[key];
  const declared =
    declaration && declaration.access !== 'public' ? declaration.id?.(ctx) : undefined;
  const url = pattern
    .replace(':entryId', String(ctx.entryId))
    .replace(':userId', id ?? sample.id ?? declared ?? ctx.memberId)
    .replace(':token', id ?? sample.id ?? '')
    .replace(':id', id ?? sample.id ?? declared ?? ctx.clientId)
    .replace(':file', 'docs.js');
  return sample.query ? `${url}?${sample.query}` : url;
}

function request(
  key: string,
  options: {
    cookie?: string;
    bearer?: string;
    id?: string;
    method?: string;
    /** The ids and samples to use: the owner's unless said. */
    context?: Context;
    /** Instead of the sample's. */
    payload?: object;
  } = {},
): Promise<LightMyRequestResponse> {
  const [method = ''] = key.split(' ');
  const ctx = options.context ?? context;
  const sample = matrix[key]?.sample?.(ctx) ?? {};
  const payload = options.payload ?? sample.payload;
  return testApp.app.inject({
    method: (options.method ?? method) as InjectOptions['method'],
    url: urlOf(key, sample, ctx, options.id),
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
    },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const apiRoutes = () =>
  testApp.app.registeredRoutes.filter((route) => route.url.startsWith('/api'));
const declared = (access: Declaration['access']) =>
  Object.entries(matrix)
    .filter(([, declaration]) => declaration.access === access)
    .map(([key]) => key);
const sessionOnly = (key: string) => {
  const declaration = matrix[key];
  return declaration?.access !== 'public' && declaration?.sessionOnly === true;
};
/** The tables as they are, but for when tokens were last used (touched on use, once a minute). */
const snapshotButTokenUse = async () => {
  const snapshot = await snapshotDatabase(testApp.app);
  delete snapshot.access_tokens;
  return snapshot;
};
/** Every route that needs a session, the administrator's included. */
const signedIn = () => [...declared('protected'), ...declared('admin')];

describe('the authorization matrix', () => {
  it('declares every registered /api route, and no route that does not exist', () => {
    const registered = apiRoutes();
    const keys = new Set(registered.filter((route) => route.method !== 'HEAD').map(keyOf));
    expect(keys.size).toBeGreaterThan(10);
    expect({
      undeclared: [...keys].filter((key) => !(key in matrix)),
      notRegistered: Object.keys(matrix).filter((key) => !keys.has(key)),
    }).toEqual({ undeclared: [], notRegistered: [] });
    const headsWithoutGet = registered
      .filter((route) => route.method === 'HEAD' && !keys.has(`GET ${route.url}`))
      .map(keyOf);
    expect(headsWithoutGet).toEqual([]);
  });

  it('names for each route the roles its declared access lets in, so neither can drift', () => {
    const described = new Map(
      Object.values(describedRoutes).map((route: Route) => [
        `${route.method} ${route.path}`,
        route,
      ]),
    );
    for (const [key, declaration] of Object.entries(matrix)) {
      const route = described.get(key);
      expect(route, key).toBeDefined();
      const access = route?.access;
      // Where a collector reaches only their own clients, as the guard sees it.
      const guarded = route?.path.startsWith('/api/clients/:id') || route?.clientParam === true;
      expect(clientScoped(key), `${key}: a client's id`).toBe(guarded);
      // The public routes and the administrator's ask nothing of a member of a book.
      if (declaration.access !== 'protected') {
        expect(access, key).toBeUndefined();
        continue;
      }
      // A route that names no access needs no book: every role may call it.
      const allowed = bookRoles.filter((role) => access === undefined || mayDo(role, access));
      expect([...declaration.roles].sort(), key).toEqual([...allowed].sort());
    }
  });

  it('agrees with the OpenAPI document on which routes need no credential', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = response.json<{ paths: Record<string, Record<string, { security?: [] }>> }>()
      .paths;
    for (const [key, declaration] of Object.entries(matrix)) {
      const [method = '', url = ''] = key.split(' ');
      const operation = paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation, key).toBeDefined();
      // `security: []` says "no credential"; absent, the document's own (token or session) holds.
      expect(operation?.security?.length === 0, key).toBe(declaration.access === 'public');
    }
  });

  it('answers every protected route 401 without a session, HEAD included, changing nothing', async () => {
    const before = await snapshotDatabase(testApp.app);
    const checked: string[] = [];
    for (const key of signedIn()) {
      const response = await request(key);
      expect(response.statusCode, key).toBe(401);
      expect(response.json(), key).toEqual({
        error: { code: 'unauthenticated', message: anyText },
      });
      checked.push(key);
      if (key.startsWith('GET ')) {
        const head = await request(key, { method: 'HEAD' });
        expect(head.statusCode, `HEAD of ${key}`).toBe(401);
      }
    }
    expect(checked).toHaveLength(signedIn().length);
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it('answers every protected route 401 for a cookie that is not a live session', async () => {
    const forged = `balance_session=${'A'.repeat(43)}`;
    for (const key of signedIn()) {
      const response = await request(key, { cookie: forged });
      expect(response.statusCode, key).toBe(401);
    }
  });

  it('answers every protected route 401 for a bearer token that is not a live one', async () => {
    const before = await snapshotDatabase(testApp.app);
    for (const bearer of [`bal_${'A'.repeat(43)}`, 'not-a-token']) {
      for (const key of declared('protected')) {
        const response = await request(key, { bearer });
        expect(response.statusCode, key).toBe(401);
        expect(response.json(), key).toEqual({
          error: { code: 'unauthenticated', message: anyText },
        });
      }
    }
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it('refuses a bearer token on the routes that manage credentials or the account, changing nothing', async () => {
    const before = await snapshotButTokenUse();
    const managing = [...declared('protected'), ...declared('admin')].filter(sessionOnly);
    // The tokens' 3, the account's 8, the administrator's 5, the books' 3 and the members' 4.
    expect(managing).toHaveLength(23);
    for (const key of managing) {
      const response = await request(key, { bearer: ownerBearer });
      expect(response.statusCode, key).toBe(403);
    }
    expect(await snapshotButTokenUse()).toEqual(before);
  });

  it("answers another owner's token on an id exactly like a missing one, changing nothing", async () => {
    const withId = declared('protected').filter((key) => hasId(key) && !sessionOnly(key));
    for (const key of withId) {
      const before = await snapshotButTokenUse();
      const foreign = await request(key, { bearer: otherBearer });
      expect(foreign.statusCode, key).toBe(404);
      expect(await snapshotButTokenUse(), key).toEqual(before);
      const missing = await request(key, { bearer: otherBearer, id: missingId });
      expect(foreign.json(), key).toEqual(missing.json());
    }
  });

  it("answers another owner's id exactly like a missing one, and the database is unchanged", async () => {
    const withId = declared('protected').filter(hasId);
    expect(withId.length).toBeGreaterThanOrEqual(5);
    for (const key of withId) {
      const before = await snapshotDatabase(testApp.app);
      const foreign = await request(key, { cookie: other.cookie });
      expect(foreign.statusCode, key).toBe(404);
      expect(await snapshotDatabase(testApp.app), key).toEqual(before);
      // Same answer as an id that exists nowhere: nothing tells that the id is someone's.
      const missing = await request(key, { cookie: other.cookie, id: missingId });
      expect(foreign.json(), key).toEqual(missing.json());
      expect(foreign.json(), key).toEqual({
        error: { code: 'not_found', message: anyText },
      });
    }
  });

  it("shows no other route any of the owner's data to another owner, and leaves it untouched", async () => {
    const ownerRows = async () => {
      const snapshot = await snapshotDatabase(testApp.app);
      // Rows of the owner: theirs by id, or holding their id (clients, events, sessions, rates).
      return Object.fromEntries(
        Object.entries(snapshot).map(([table, rows]) => [
          table,
          rows.filter((row) => row.includes(owner.userId)),
        ]),
      );
    };
    const before = await ownerRows();
    expect(before.clients).toHaveLength(2);
    expect(before.exchange_rates).toHaveLength(1);
    const withoutId = declared('protected').filter(
      (key) =>
        !hasId(key) && !streams.has(key) && !endsTheAccount.has(key) && !clientInBody.has(key),
    );
    // Route by route, each with both credentials: a restore goes only into an empty account.
    for (const key of withoutId) {
      for (const credential of [{ cookie: other.cookie }, { bearer: otherBearer }]) {
        if (credential.bearer && sessionOnly(key)) continue;
        const response = await request(key, credential);
        expect(response.statusCode, key).toBeLessThan(300);
        if (endsTheTokens.has(key)) otherBearer = (await newToken(other.cookie)).secret;
        for (const secret of [
          context.clientId,
          context.tokenId,
          'only.the.owner@example.com',
          'Ownerssecret',
          owner.email,
        ]) {
          expect(response.body, key).not.toContain(secret);
        }
      }
    }
    expect(await ownerRows()).toEqual(before);
    // The other owner deleted the book their session acted in (the one they made): their next call
    // settles the session on their first book, a write made here so later checks start settled.
    expect((await request('GET /api/books', { cookie: other.cookie })).statusCode).toBe(200);
  });

  it("answers another owner's client in a confirmed bank line like a missing one, changing nothing", async () => {
    const before = await snapshotButTokenUse();
    for (const credential of [{ cookie: other.cookie }, { bearer: otherBearer }]) {
      const foreign = await request('POST /api/bank/confirm', credential);
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toMatchObject({
        error: { fields: { 'lines.0.allocations': 'Client not found' } },
      });
    }
    expect(await snapshotButTokenUse()).toEqual(before);
  });

  it("answers another owner's link in a revoke like a missing one, changing nothing", async () => {
    const before = await snapshotDatabase(testApp.app);
    const foreign = await request('POST /api/account/client-links/revoke', {
      cookie: other.cookie,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'not_found', message: anyText } });
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it("answers another owner's switch to the owner's book like one to a missing book, changing nothing", async () => {
    const before = await snapshotButTokenUse();
    const foreign = await request('POST /api/books/current', { cookie: other.cookie });
    expect(foreign.statusCode).toBe(404);
    const missing = await request('POST /api/books/current', {
      cookie: other.cookie,
      payload: { bookId: missingId },
    });
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.json()).toEqual({ error: { code: 'not_found', message: anyText } });
    // A token acts in its one book: it switches none.
    const viaToken = await request('POST /api/books/current', { bearer: otherBearer });
    expect(viaToken.statusCode).toBe(403);
    expect(await snapshotButTokenUse()).toEqual(before);
  });

  it("answers the administrator's routes 403 to anyone else, changing nothing", async () => {
    const before = await snapshotDatabase(testApp.app);
    expect(declared('admin').length).toBeGreaterThanOrEqual(5);
    for (const key of declared('admin')) {
      const response = await request(key, { cookie: other.cookie });
      expect(response.statusCode, key).toBe(403);
      expect(response.json(), key).toEqual({ error: { code: 'forbidden', message: anyText } });
    }
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it("deletes only the caller's own account, with every row that was theirs", async () => {
    const leaving = await joinAs(testApp.app);
    const before = await snapshotDatabase(testApp.app);
    const response = await request('DELETE /api/account', { cookie: leaving.cookie });
    expect(response.statusCode).toBe(204);
    const after = await snapshotDatabase(testApp.app);
    const expected = Object.fromEntries(
      Object.entries(before).map(([table, rows]) => [
        table,
        rows.filter((row) => !row.includes(leaving.userId) && !row.includes(leaving.email)),
      ]),
    );
    expect(after).toEqual(expected);
  });

  it('refuses a key a body does not take, on every route with a JSON body, naming it and changing nothing', async () => {
    // Answered 200 and left out, what a misspelt key held would be lost without a word
    // (decision 043). A restore reads an export file, whose versions it knows by their number.
    const withBody = Object.entries(matrix).filter(([key, declaration]) => {
      const payload = declaration.sample?.(context).payload;
      return (
        key !== 'POST /api/restore' &&
        typeof payload === 'object' &&
        payload !== null &&
        !Buffer.isBuffer(payload) &&
        !Array.isArray(payload)
      );
    });
    expect(withBody.length).toBeGreaterThanOrEqual(25);
    const before = await snapshotButTokenUse();
    for (const [key, declaration] of withBody) {
      const sample = declaration.sample!(context);
      const response = await request(key, {
        ...(declaration.access === 'public' ? {} : { cookie: owner.cookie }),
        payload: { ...(sample.payload as object), balanceDue: 100 },
      });
      expect(response.statusCode, `${key}: ${response.body}`).toBe(400);
      expect(response.json(), key).toMatchObject({
        error: {
          code: 'validation',
          fields: { balanceDue: 'This field is not one this request takes.' },
        },
      });
    }
    expect(await snapshotButTokenUse()).toEqual(before);
  });

  it('lets the public routes answer without a session', async () => {
    for (const [key, declaration] of Object.entries(matrix)) {
      if (declaration.access !== 'public') continue;
      const response = await request(key);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(declaration.status);
    }
  });

  it('still knows the owner: their own calls succeed with the same samples', async () => {
    // Proves the samples are valid, so the 401s and 404s above come from who asked, not how.
    const mine = [...declared('protected'), ...declared('admin')].filter(
      (name) => !streams.has(name) && !endsTheAccount.has(name),
    );
    for (const key of mine) {
      // The owner's token reads what the session reads (its writes are checked in
      // tokens.routes.test.ts; here the session's write comes next and must find the data).
      if (key.startsWith('GET ') && !sessionOnly(key)) {
        const viaToken = await request(key, { bearer: ownerBearer });
        expect(viaToken.statusCode, `${key} with a token: ${viaToken.body}`).toBe(200);
      }
      const response = await request(key, { cookie: owner.cookie });
      // Their refusal comes after the session and the sample were accepted (the other owner's
      // restore, into an empty account, succeeded above).
      const refusal = ownerRefusals[key];
      if (refusal !== undefined) {
        expect(response.json(), key).toMatchObject({ error: { code: refusal } });
        continue;
      }
      expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(300);
      if (endsTheTokens.has(key)) {
        ownerBearer = (await newToken(owner.cookie)).secret;
        context.tokenId = (await newToken(owner.cookie)).token.id;
      }
      if (key === 'DELETE /api/clients/:id' || key.startsWith('P')) {
        const current = await testApp.app.inject({
          method: 'GET',
          url: `/api/clients/${context.clientId}`,
          headers: { cookie: owner.cookie },
        });
        if (current.statusCode === 200) context.clientVersion = current.json<Client>().version;
      }
    }
  });
});

const memberRoles = ['bookkeeper', 'collector', 'viewer'] as const;
type MemberRole = (typeof memberRoles)[number];

/** Routes outside /api/clients/:id whose `:id` is a client's. */
const clientIdInPath = new Set(['POST /api/reminders/due-today/:id/sent']);
/** The routes of one client: a collector reaches only their own, any other answers as missing. */
const clientScoped = (key: string) =>
  key.split(' ')[1]!.startsWith('/api/clients/:id') || clientIdInPath.has(key);

/** The message of a member's refusal, from the roles the route lets in. */
function refusalMessage(key: string, role: MemberRole): string {
  const declaration = matrix[key];
  const roles = declaration?.access === 'protected' ? declaration.roles : [];
  if (!roles.some((allowed) => allowed !== 'owner'))
    return 'Only an owner of this book can do this';
  return role === 'viewer'
    ? 'A viewer of this book can read it but not change it'
    : 'A collector works only with their own clients, and cannot do this';
}

/** What a foreign book's data named in a request's body answers, when the role may call it. */
const foreignInBody: Readonly<Record<string, number>> = {
  'POST /api/bank/confirm': 400,
  'POST /api/account/client-links/revoke': 404,
  'POST /api/books/current': 404,
};

/** The calls each member made, counted to prove every route ran. */
const noCases = { refused: 0, hidden: 0, allowed: 0, foreign: 0 };
const cases: Record<string, typeof noCases> = {};

describe("the authorization matrix for a book's members, by role", () => {
  /** Another book, whose ids every member's call must answer as missing ones. */
  let foreign: Context;
  beforeAll(async () => {
    foreign = await makeBook(await joinAs(testApp.app));
  });

  const snapshot = () =>
    snapshotDatabase(testApp.app, { ignore: { access_tokens: ['last_used_at'] } });
  const secrets = (book: Context) => [book.clientId, 'only.the.owner@example.com', 'Ownerssecret'];

  /**
   * Every route, in the matrix's order, as a member of a fresh book in the role, with a session or
   * with a read-write token of theirs made in that book: refused ones answer 403 naming why (or,
   * for a collector, 404 on a client not theirs) and change nothing; allowed ones answer as the
   * owner's own call does. Each id of another book first answers exactly as a missing one.
   */
  async function runAs(role: MemberRole, credential: 'session' | 'token') {
    const bookOwner = await joinAs(testApp.app);
    const book = await makeBook(bookOwner);
    const person = await member(
      bookOwner.cookie,
      role,
      role === 'collector' ? [book.assignedClientId] : undefined,
    );
    // The person's own session and token stand for the owner's in the samples that name them.
    const own: Context = {
      ...book,
      sessionId: await secondSession(person),
      tokenId: (await newToken(person.cookie)).token.id,
    };
    const bearer = credential === 'token' ? (await newToken(person.cookie)).secret : undefined;
    const as = bearer === undefined ? { cookie: person.cookie } : { bearer };
    // Calls that must change nothing are checked a run at a time: the database as it was before
    // the first of them, against the database after the last, before any call that may write.
    let before: DatabaseSnapshot | null = null;
    let unchangedBy: string[] = [];
    const changesNothing = async (label: string) => {
      before ??= await snapshot();
      unchangedBy.push(label);
    };
    const settle = async () => {
      if (before === null) return;
      expect(await snapshot(), `changed by one of: ${unchangedBy.join('; ')}`).toEqual(before);
      before = null;
      unchangedBy = [];
    };
    const count = (cases[`${role} with a ${credential}`] ??= { ...noCases });

    for (const [key, declaration] of Object.entries(matrix)) {
      // As everywhere above: the stream never ends; this ends the caller's account.
      if (streams.has(key) || endsTheAccount.has(key)) continue;
      // A sign-in, a join and a sign-out end the session the cookie held (a token is no session).
      if (endsTheSession.has(key) && bearer === undefined) continue;
      const accepting = key === 'POST /api/invitations/:token/accept';
      // A token is no one's on a public route: it would accept as anyone with the link does.
      if (accepting && bearer !== undefined) continue;
      const label = `${key}, a ${role} with a ${credential}`;
      const tokenRefused =
        bearer !== undefined && declaration.access !== 'public' && declaration.sessionOnly === true;
      const roleRefused = declaration.access === 'protected' && !declaration.roles.includes(role);
      const refused = tokenRefused || roleRefused || declaration.access === 'admin' || accepting;
      const hidden = !refused && role === 'collector' && clientScoped(key);

      let missing: LightMyRequestResponse | undefined;
      if (declaration.access !== 'public' && hasId(key)) {
        await changesNothing(`${label}, another book's id or a missing one`);
        missing = await request(key, { ...as, context: own, id: missingId });
        const sampleOf = (ctx: Context) => declaration.sample?.(ctx) ?? {};
        if (urlOf(key, sampleOf(foreign), foreign) !== urlOf(key, sampleOf(own), own)) {
          const answer = await request(key, { ...as, context: foreign });
          expect(answer.statusCode, `${label}, another book's id: ${answer.body}`).toBe(
            refused ? 403 : 404,
          );
          expect(answer.json(), `${label}, another book's id`).toEqual(missing.json());
          count.foreign += 1;
        }
      }
      if (clientInBody.has(key)) {
        await changesNothing(`${label}, another book's data in the body`);
        const answer = await request(key, { ...as, context: foreign });
        expect(answer.statusCode, `${label}, another book's data in the body: ${answer.body}`).toBe(
          refused ? 403 : foreignInBody[key],
        );
        count.foreign += 1;
      }

      if (refused || hidden) await changesNothing(label);
      else await settle();
      const response = await request(key, { ...as, context: own });
      if (role === 'collector') {
        for (const secret of secrets(book)) expect(response.body, label).not.toContain(secret);
      }
      if (declaration.access === 'public' && !accepting) {
        expect(response.statusCode, `${label}: ${response.body}`).toBe(declaration.status);
        count.allowed += 1;
        continue;
      }
      if (refused) {
        // A signed-in member cannot take an invitation sent to someone else.
        expect(response.statusCode, `${label}: ${response.body}`).toBe(403);
        expect(response.json(), label).toEqual({
          error: {
            code: 'forbidden',
            message: roleRefused && !tokenRefused ? refusalMessage(key, role) : anyText,
          },
        });
        count.refused += 1;
        continue;
      }
      if (hidden) {
        // The sample client is not theirs: it answers as a missing one.
        expect(response.statusCode, `${label}: ${response.body}`).toBe(404);
        expect(response.json(), label).toEqual(missing?.json());
        count.hidden += 1;
        continue;
      }
      // Allowed: as the owner's own call answers.
      const refusal = ownerRefusals[key];
      if (refusal === undefined) {
        expect(response.statusCode, `${label}: ${response.body}`).toBeLessThan(300);
      } else {
        expect(response.json(), label).toMatchObject({ error: { code: refusal } });
      }
      count.allowed += 1;
      if (endsTheTokens.has(key)) own.tokenId = (await newToken(person.cookie)).token.id;
      if (!key.startsWith('GET ')) {
        const current = await inject(bookOwner.cookie, 'GET', `/api/clients/${book.clientId}`);
        if (current.statusCode === 200) own.clientVersion = current.json<Client>().version;
      }
    }
    await settle();
  }

  for (const role of memberRoles) {
    for (const credential of ['session', 'token'] as const) {
      it(`runs every route as a ${role} with a ${credential}: refused ones change nothing, another book's ids are missing ones`, async () => {
        await runAs(role, credential);
      }, 120_000);
    }
  }

  it('lets a collector read their own client and record a payment on it, but no charge', async () => {
    const bookOwner = await joinAs(testApp.app);
    const book = await makeBook(bookOwner);
    const collector = await member(bookOwner.cookie, 'collector', [book.assignedClientId]);
    const bearer = (await newToken(collector.cookie)).secret;
    const theirs: Context = { ...book, clientId: book.assignedClientId };
    let collectorsOwn = 0;
    const reads = Object.keys(matrix).filter((key) => key.startsWith('GET ') && clientScoped(key));
    // The client, its history, entries, statement (and its CSV and PDF), link and reminders.
    expect(reads).toHaveLength(8);
    for (const as of [{ cookie: collector.cookie }, { bearer }]) {
      const label = as.bearer === undefined ? 'with a session' : 'with a token';
      for (const key of reads) {
        const response = await request(key, { ...as, context: theirs });
        expect(response.statusCode, `${key} ${label}: ${response.body}`).toBe(200);
        for (const secret of secrets(book)) expect(response.body, key).not.toContain(secret);
        collectorsOwn += 1;
      }
      const list = await request('GET /api/clients', as);
      expect(list.statusCode, label).toBe(200);
      expect(
        list.json<{ clients: { id: string }[] }>().clients.map((client) => client.id),
        label,
      ).toEqual([book.assignedClientId]);
      // Reminders are off: as for the owner, nothing is due to be marked sent.
      const sent = await request('POST /api/reminders/due-today/:id/sent', {
        ...as,
        context: theirs,
      });
      expect(sent.json(), `a reminder marked sent ${label}`).toMatchObject({
        error: { code: 'conflict' },
      });
      const payment = await request('POST /api/clients/:id/entries', { ...as, context: theirs });
      expect(payment.statusCode, `a payment ${label}: ${payment.body}`).toBe(201);
      const before = await snapshot();
      const charge = await request('POST /api/clients/:id/entries', {
        ...as,
        context: theirs,
        payload: { kind: 'charge', amount: 100, note: 'matrix' },
      });
      expect(charge.statusCode, `a charge ${label}: ${charge.body}`).toBe(403);
      expect(charge.json(), label).toEqual({
        error: { code: 'forbidden', message: 'A collector records payments only' },
      });
      expect(await snapshot(), label).toEqual(before);
      collectorsOwn += 4;
    }
    expect(collectorsOwn).toBe(2 * (reads.length + 4));
  });

  it('ran every route for each role with each credential', () => {
    const run = Object.keys(matrix).filter((key) => !streams.has(key) && !endsTheAccount.has(key));
    const total = (counted: typeof noCases | undefined) =>
      counted ? counted.refused + counted.hidden + counted.allowed : 0;
    for (const role of memberRoles) {
      const session = cases[`${role} with a session`];
      const token = cases[`${role} with a token`];
      expect(total(session), role).toBe(run.filter((key) => !endsTheSession.has(key)).length);
      expect(total(token), role).toBe(
        run.filter((key) => key !== 'POST /api/invitations/:token/accept').length,
      );
      // Each id of a book's data, and each in a body, also asked with another book's.
      expect(session?.foreign, role).toBeGreaterThanOrEqual(25);
      expect(token?.foreign, role).toBeGreaterThanOrEqual(25);
    }
  });
});

// The SSE route hijacks the reply; signed out it must still answer a plain 401 over real HTTP.
describe('the live stream signed out, over real HTTP', () => {
  it('answers 401 with a JSON error, and no stream', async () => {
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/events`, {
      signal: AbortSignal.timeout(5000),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});
