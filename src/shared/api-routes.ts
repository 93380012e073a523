import type { z } from 'zod/mini';
import type { BookAccess } from './book-access.ts';
import type * as accessTokens from './schemas/access-tokens.ts';
import type * as account from './schemas/account.ts';
import type * as apiDocs from './schemas/api-docs.ts';
import type * as auth from './schemas/auth.ts';
import type * as bank from './schemas/bank.ts';
import type * as books from './schemas/books.ts';
import type * as clientLinks from './schemas/client-links.ts';
import type * as clients from './schemas/clients.ts';
import type * as events from './schemas/events.ts';
import type * as firstRun from './schemas/first-run.ts';
import type * as health from './schemas/health.ts';
import type * as language from './schemas/language.ts';
import type * as ledger from './schemas/ledger.ts';
import type * as members from './schemas/members.ts';
import type * as overview from './schemas/overview.ts';
import type * as reminders from './schemas/reminders.ts';
import type * as restore from './schemas/restore.ts';
import type * as settings from './schemas/settings.ts';
import type * as statement from './schemas/statement.ts';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The schemas of one route: what it takes, and what it answers on success (and on failure). */
export interface RouteSchemas {
  readonly params?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  readonly answer?: z.ZodMiniType;
  /** Answers besides the success that carry a body of their own (health's 503). */
  readonly otherAnswers?: Readonly<Record<number, z.ZodMiniType>>;
}

/**
 * One route of the server, described once: its method, its path as Fastify writes it (`:id` for
 * a parameter), the status it answers on success, and its schemas. The server registers the
 * route from this (src/server/described-route.ts), so its validation and the OpenAPI document
 * come from it, and the browser types its calls with it (src/client/lib/api-client.ts).
 */
export interface Route {
  readonly method: ApiMethod;
  readonly path: `/${string}`;
  /** 200 unless named. */
  readonly status?: 200 | 201 | 202 | 204;
  /**
   * Picks the route's schemas from the schema modules, which only the server hands it: the
   * browser's first page imports no schema module (decision 013), and types its calls with this
   * function's type.
   */
  readonly schemas?: (modules: SchemaModules) => RouteSchemas;
  /**
   * Parts the handler checks itself, which Fastify then neither validates nor publishes: a body
   * read as bytes, an answer checked as it is computed.
   */
  readonly checkedByHandler?: readonly ('body' | 'answer')[];
  /** What it asks of a member of the current book (src/shared/book-access.ts); none: no book. */
  readonly access?: BookAccess;
  /**
   * Its `:id` is a client's, outside `/api/clients/:id` (where it always is): a collector reaches
   * only their own clients' (books/access.ts).
   */
  readonly clientParam?: true;
}

/** A route of the JSON API, which the web app calls or links to. */
export interface ApiRoute extends Route {
  readonly path: `/api/${string}`;
}

/**
 * Every schema module of src/shared/schemas, by type only and keyed by module, so a route names
 * the module its schema comes from (`s.ledger.entryInputSchema`). The server hands the modules
 * themselves to each route's `schemas` when it registers the route (src/server/described-route.ts),
 * so the browser's bundle, which takes only the routes' methods and paths, loads none of them.
 */
export interface SchemaModules {
  readonly accessTokens: typeof accessTokens;
  readonly account: typeof account;
  readonly apiDocs: typeof apiDocs;
  readonly auth: typeof auth;
  readonly bank: typeof bank;
  readonly books: typeof books;
  readonly clientLinks: typeof clientLinks;
  readonly clients: typeof clients;
  readonly events: typeof events;
  readonly firstRun: typeof firstRun;
  readonly health: typeof health;
  readonly language: typeof language;
  readonly ledger: typeof ledger;
  readonly members: typeof members;
  readonly overview: typeof overview;
  readonly reminders: typeof reminders;
  readonly restore: typeof restore;
  readonly settings: typeof settings;
  readonly statement: typeof statement;
}

/**
 * Every route of the JSON API. A route without `answer` answers 204, a file or a stream; one
 * without `body` takes none. A test checks that the server registers exactly these and the pages
 * below (modules/api-docs/api-routes.test.ts).
 */
export const apiRoutes = {
  health: {
    method: 'GET',
    path: '/api/health',
    schemas: (s) => ({
      answer: s.health.healthSchema,
      otherAnswers: { 503: s.health.healthSchema },
    }),
  },
  session: {
    method: 'GET',
    path: '/api/auth/session',
    schemas: (s) => ({ answer: s.auth.sessionResponseSchema }),
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    schemas: (s) => ({ body: s.auth.loginBodySchema, answer: s.auth.userResponseSchema }),
  },
  join: {
    method: 'POST',
    path: '/api/auth/join',
    status: 201,
    schemas: (s) => ({ body: s.auth.joinBodySchema, answer: s.auth.userResponseSchema }),
  },
  logout: { method: 'POST', path: '/api/auth/logout' },
  forgotPassword: {
    method: 'POST',
    path: '/api/auth/forgot-password',
    status: 202,
    schemas: (s) => ({
      body: s.auth.forgotPasswordBodySchema,
      answer: s.auth.forgotPasswordResponseSchema,
    }),
  },
  resetPassword: {
    method: 'POST',
    path: '/api/auth/password-reset',
    schemas: (s) => ({ body: s.account.passwordResetBodySchema }),
  },

  accountSessions: {
    method: 'GET',
    path: '/api/account/sessions',
    schemas: (s) => ({ answer: s.account.accountSessionsSchema }),
  },
  endSession: {
    method: 'DELETE',
    path: '/api/account/sessions/:id',
    schemas: (s) => ({ params: s.account.sessionIdParamsSchema }),
  },
  endOtherSessions: {
    method: 'POST',
    path: '/api/account/sessions/end-others',
    schemas: (s) => ({ answer: s.account.endedSessionsSchema }),
  },
  changePassword: {
    method: 'POST',
    path: '/api/account/password',
    schemas: (s) => ({ body: s.account.changePasswordBodySchema }),
  },
  changeEmail: {
    method: 'POST',
    path: '/api/account/email',
    schemas: (s) => ({
      body: s.account.changeEmailBodySchema,
      answer: s.account.changedEmailSchema,
    }),
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/api/account',
    schemas: (s) => ({ body: s.account.deleteAccountBodySchema }),
  },
  accountClientLinks: {
    method: 'GET',
    path: '/api/account/client-links',
    access: 'keep',
    schemas: (s) => ({ answer: s.clientLinks.accountClientLinksSchema }),
  },
  revokeAccountClientLinks: {
    method: 'POST',
    path: '/api/account/client-links/revoke',
    access: 'keep',
    schemas: (s) => ({
      body: s.clientLinks.revokeClientLinksBodySchema,
      answer: s.clientLinks.revokedClientLinksSchema,
    }),
  },

  adminUsers: {
    method: 'GET',
    path: '/api/admin/users',
    schemas: (s) => ({ answer: s.account.adminUsersSchema }),
  },
  disableUser: {
    method: 'POST',
    path: '/api/admin/users/:id/disable',
    schemas: (s) => ({ params: s.account.userIdParamsSchema }),
  },
  enableUser: {
    method: 'POST',
    path: '/api/admin/users/:id/enable',
    schemas: (s) => ({ params: s.account.userIdParamsSchema }),
  },
  createResetLink: {
    method: 'POST',
    path: '/api/admin/users/:id/password-reset',
    status: 201,
    schemas: (s) => ({ params: s.account.userIdParamsSchema, answer: s.account.oneTimeLinkSchema }),
  },
  createInvitation: {
    method: 'POST',
    path: '/api/admin/invitations',
    status: 201,
    schemas: (s) => ({ body: s.account.invitationBodySchema, answer: s.account.oneTimeLinkSchema }),
  },

  publicSettings: {
    method: 'GET',
    path: '/api/settings/public',
    schemas: (s) => ({ answer: s.settings.publicSettingsSchema }),
  },
  settings: {
    method: 'GET',
    path: '/api/settings',
    access: 'read',
    schemas: (s) => ({ answer: s.settings.settingsSchema }),
  },
  saveSettings: {
    method: 'PUT',
    path: '/api/settings',
    access: 'keep',
    schemas: (s) => ({ body: s.settings.settingsUpdateSchema, answer: s.settings.settingsSchema }),
  },
  saveLanguage: {
    method: 'PUT',
    path: '/api/settings/language',
    access: 'read',
    schemas: (s) => ({
      body: s.language.languageUpdateSchema,
      answer: s.language.languageUpdateSchema,
    }),
  },
  finishSetup: {
    method: 'PUT',
    path: '/api/settings/setup',
    access: 'own',
    schemas: (s) => ({ body: s.settings.setupSchema, answer: s.firstRun.firstRunSchema }),
  },

  overview: {
    method: 'GET',
    path: '/api/overview',
    access: 'readBook',
    schemas: (s) => ({ answer: s.overview.overviewSchema }),
  },
  ageing: {
    method: 'GET',
    path: '/api/ageing',
    access: 'readBook',
    schemas: (s) => ({ answer: s.clients.ageingSchema }),
  },
  // The answer is checked against its schema as it is computed, then sent as bytes (gzipped).
  clientList: {
    method: 'GET',
    path: '/api/clients',
    access: 'read',
    schemas: (s) => ({
      query: s.clients.clientListQuerySchema,
      answer: s.clients.clientListSchema,
    }),
    checkedByHandler: ['answer'],
  },
  client: {
    method: 'GET',
    path: '/api/clients/:id',
    access: 'read',
    schemas: (s) => ({ params: s.clients.clientIdParams, answer: s.clients.clientSchema }),
  },
  clientHistory: {
    method: 'GET',
    path: '/api/clients/:id/history',
    access: 'read',
    schemas: (s) => ({ params: s.clients.clientIdParams, answer: s.events.historyListSchema }),
  },
  addClient: {
    method: 'POST',
    path: '/api/clients',
    access: 'keep',
    status: 201,
    schemas: (s) => ({ body: s.clients.clientInputSchema, answer: s.clients.clientSchema }),
  },
  updateClient: {
    method: 'PUT',
    path: '/api/clients/:id',
    access: 'keep',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.clients.clientUpdateSchema,
      answer: s.clients.clientSchema,
    }),
  },
  deleteClient: {
    method: 'DELETE',
    path: '/api/clients/:id',
    access: 'keep',
    status: 204,
    schemas: (s) => ({ params: s.clients.clientIdParams }),
  },

  updateBalance: {
    method: 'PATCH',
    path: '/api/clients/:id/balance',
    access: 'keep',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.clients.balanceUpdateSchema,
      answer: s.clients.clientSchema,
    }),
  },
  clientEntries: {
    method: 'GET',
    path: '/api/clients/:id/entries',
    access: 'read',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      query: s.ledger.entryListQuerySchema,
      answer: s.ledger.entryListSchema,
    }),
  },
  recordEntry: {
    method: 'POST',
    path: '/api/clients/:id/entries',
    access: 'collect',
    status: 201,
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.ledger.entryInputSchema,
      answer: s.ledger.recordedEntrySchema,
    }),
  },
  voidEntry: {
    method: 'POST',
    path: '/api/clients/:id/entries/:entryId/void',
    access: 'keep',
    status: 201,
    schemas: (s) => ({
      params: s.ledger.entryParams,
      body: s.ledger.voidInputSchema,
      answer: s.ledger.recordedEntrySchema,
    }),
  },

  statement: {
    method: 'GET',
    path: '/api/clients/:id/statement',
    access: 'read',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      query: s.statement.statementQuerySchema,
      answer: s.statement.statementSchema,
    }),
  },
  // Files: the browser downloads or opens these itself.
  statementCsv: {
    method: 'GET',
    path: '/api/clients/:id/statement.csv',
    access: 'read',
    schemas: (s) => ({ params: s.clients.clientIdParams, query: s.statement.statementQuerySchema }),
  },
  statementPdf: {
    method: 'GET',
    path: '/api/clients/:id/statement.pdf',
    access: 'read',
    schemas: (s) => ({ params: s.clients.clientIdParams, query: s.statement.statementQuerySchema }),
  },
  sendStatement: {
    method: 'POST',
    path: '/api/clients/:id/statement/send',
    access: 'collect',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.statement.statementSendSchema,
      answer: s.statement.statementSentSchema,
    }),
  },

  clientLink: {
    method: 'GET',
    path: '/api/clients/:id/link',
    access: 'read',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      answer: s.clientLinks.clientLinkStateSchema,
    }),
  },
  createClientLink: {
    method: 'POST',
    path: '/api/clients/:id/link',
    access: 'keep',
    status: 201,
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.clientLinks.clientLinkInputSchema,
      answer: s.clientLinks.createdClientLinkSchema,
    }),
  },
  revokeClientLink: {
    method: 'DELETE',
    path: '/api/clients/:id/link',
    access: 'keep',
    schemas: (s) => ({ params: s.clients.clientIdParams }),
  },
  setClientLanguage: {
    method: 'PUT',
    path: '/api/clients/:id/language',
    access: 'keep',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.clientLinks.clientLanguageUpdateSchema,
      answer: s.clientLinks.clientLanguageUpdateSchema,
    }),
  },

  reminderPlan: {
    method: 'GET',
    path: '/api/reminders/plan',
    access: 'read',
    schemas: (s) => ({ answer: s.reminders.reminderPlanSchema }),
  },
  saveReminderPlan: {
    method: 'PUT',
    path: '/api/reminders/plan',
    access: 'keep',
    schemas: (s) => ({
      body: s.reminders.reminderPlanBodySchema,
      answer: s.reminders.reminderPlanSchema,
    }),
  },
  clientReminders: {
    method: 'GET',
    path: '/api/clients/:id/reminders',
    access: 'read',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      answer: s.reminders.clientRemindersSchema,
    }),
  },
  setClientReminders: {
    method: 'PUT',
    path: '/api/clients/:id/reminders',
    access: 'keep',
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.reminders.clientRemindersBodySchema,
      answer: s.reminders.clientRemindersSchema,
    }),
  },
  reminders: {
    method: 'GET',
    path: '/api/reminders',
    access: 'readBook',
    schemas: (s) => ({
      query: s.reminders.reminderListQuerySchema,
      answer: s.reminders.reminderListSchema,
    }),
  },
  remindersDueToday: {
    method: 'GET',
    path: '/api/reminders/due-today',
    // A collector's list holds their own clients only.
    access: 'read',
    schemas: (s) => ({ answer: s.reminders.dueRemindersSchema }),
  },
  markReminderSent: {
    method: 'POST',
    path: '/api/reminders/due-today/:id/sent',
    access: 'collect',
    clientParam: true,
    schemas: (s) => ({
      params: s.clients.clientIdParams,
      body: s.reminders.markSentBodySchema,
      answer: s.reminders.markedSentSchema,
    }),
  },
  reminderPreview: {
    method: 'GET',
    path: '/api/reminders/preview',
    access: 'readBook',
    schemas: (s) => ({ answer: s.reminders.reminderPreviewSchema }),
  },

  liveEvents: {
    method: 'GET',
    path: '/api/events',
    access: 'read',
    schemas: (s) => ({ query: s.events.eventStreamQuerySchema }),
  },

  // Books (decision 044): the person's books and the one the session acts in.
  books: {
    method: 'GET',
    path: '/api/books',
    schemas: (s) => ({ answer: s.books.booksSchema }),
  },
  createBook: {
    method: 'POST',
    path: '/api/books',
    status: 201,
    schemas: (s) => ({ body: s.members.newBookBodySchema, answer: s.books.booksSchema }),
  },
  switchBook: {
    method: 'POST',
    path: '/api/books/current',
    schemas: (s) => ({ body: s.members.switchBookBodySchema, answer: s.books.booksSchema }),
  },
  deleteBook: { method: 'DELETE', path: '/api/book', status: 204, access: 'own' },
  // The current book's members and invitations: its owners'.
  bookMembers: {
    method: 'GET',
    path: '/api/book/members',
    access: 'own',
    schemas: (s) => ({ answer: s.members.bookMembersSchema }),
  },
  inviteMember: {
    method: 'POST',
    path: '/api/book/invitations',
    access: 'own',
    status: 201,
    schemas: (s) => ({
      body: s.members.inviteBodySchema,
      answer: s.members.invitationCreatedSchema,
    }),
  },
  revokeInvitation: {
    method: 'DELETE',
    path: '/api/book/invitations/:id',
    access: 'own',
    status: 204,
    schemas: (s) => ({ params: s.members.invitationParamsSchema }),
  },
  changeMember: {
    method: 'PUT',
    path: '/api/book/members/:userId',
    access: 'own',
    schemas: (s) => ({
      params: s.members.memberParamsSchema,
      body: s.members.memberBodySchema,
      answer: s.members.bookMembersSchema,
    }),
  },
  removeMember: {
    method: 'DELETE',
    path: '/api/book/members/:userId',
    access: 'own',
    status: 204,
    schemas: (s) => ({ params: s.members.memberParamsSchema }),
  },
  // Who did what, and the closed period (issue 59): an owner's.
  bookActivity: {
    method: 'GET',
    path: '/api/book/activity',
    access: 'own',
    schemas: (s) => ({ query: s.members.activityQuerySchema, answer: s.members.activitySchema }),
  },
  lockDate: {
    method: 'GET',
    path: '/api/book/lock-date',
    access: 'own',
    schemas: (s) => ({ answer: s.members.lockDateSchema }),
  },
  setLockDate: {
    method: 'PUT',
    path: '/api/book/lock-date',
    access: 'own',
    schemas: (s) => ({ body: s.members.lockDateBodySchema, answer: s.members.lockDateSchema }),
  },
  // The invitation's link: seen before signing in, accepted signed in or by choosing a password.
  invitation: {
    method: 'GET',
    path: '/api/invitations/:token',
    schemas: (s) => ({
      params: s.members.invitationTokenParamsSchema,
      answer: s.members.invitationViewSchema,
    }),
  },
  acceptInvitation: {
    method: 'POST',
    path: '/api/invitations/:token/accept',
    schemas: (s) => ({
      params: s.members.invitationTokenParamsSchema,
      body: s.members.acceptInvitationBodySchema,
      answer: s.auth.userResponseSchema,
    }),
  },

  tokens: {
    method: 'GET',
    path: '/api/tokens',
    schemas: (s) => ({ answer: s.accessTokens.accessTokenListSchema }),
  },
  createToken: {
    method: 'POST',
    path: '/api/tokens',
    access: 'read',
    status: 201,
    schemas: (s) => ({
      body: s.accessTokens.accessTokenInputSchema,
      answer: s.accessTokens.createdAccessTokenSchema,
    }),
  },
  revokeToken: {
    method: 'DELETE',
    path: '/api/tokens/:id',
    schemas: (s) => ({ params: s.accessTokens.accessTokenIdParams }),
  },

  exportClientsCsv: {
    method: 'GET',
    path: '/api/clients/export.csv',
    access: 'readBook',
    schemas: (s) => ({ query: s.clients.clientListQuerySchema }),
  },
  exportEntriesCsv: { method: 'GET', path: '/api/entries/export.csv', access: 'readBook' },
  exportJson: { method: 'GET', path: '/api/export.json', access: 'readBook' },
  // The rows' results are checked a slice at a time as they are written (import-rows.ts).
  importClients: {
    method: 'POST',
    path: '/api/clients/import',
    access: 'keep',
    schemas: (s) => ({ body: s.clients.importBodySchema, answer: s.clients.importResultSchema }),
    checkedByHandler: ['answer'],
  },
  // The body is an export file as read from disk, parsed and checked by the restore command.
  restore: {
    method: 'POST',
    path: '/api/restore',
    access: 'own',
    schemas: (s) => ({
      body: s.restore.restoreBodySchema,
      query: s.restore.restoreQuerySchema,
      answer: s.restore.restoreSummarySchema,
    }),
    checkedByHandler: ['body'],
  },

  bankPreview: {
    method: 'POST',
    path: '/api/bank/preview',
    access: 'keep',
    schemas: (s) => ({ body: s.bank.bankPreviewBodySchema, answer: s.bank.bankPreviewSchema }),
  },
  bankConfirm: {
    method: 'POST',
    path: '/api/bank/confirm',
    access: 'keep',
    schemas: (s) => ({ body: s.bank.bankConfirmBodySchema, answer: s.bank.bankConfirmedSchema }),
  },
  bankLayouts: {
    method: 'GET',
    path: '/api/bank/layouts',
    access: 'keep',
    schemas: (s) => ({ answer: s.bank.bankLayoutsSchema }),
  },
  bankUndo: {
    method: 'POST',
    path: '/api/bank/batches/:id/undo',
    access: 'keep',
    schemas: (s) => ({ params: s.bank.bankBatchParams, answer: s.bank.bankUndoneSchema }),
  },
  bankRules: {
    method: 'GET',
    path: '/api/bank/rules',
    access: 'keep',
    schemas: (s) => ({ answer: s.bank.bankRuleListSchema }),
  },
  forgetBankRule: {
    method: 'DELETE',
    path: '/api/bank/rules/:id',
    access: 'keep',
    status: 204,
    schemas: (s) => ({ params: s.bank.bankRuleParams }),
  },

  openApiDocument: { method: 'GET', path: '/api/openapi.json' },
  apiDocs: { method: 'GET', path: '/api/docs' },
  apiDocsFile: {
    method: 'GET',
    path: '/api/docs/:file',
    schemas: (s) => ({ params: s.apiDocs.apiDocsAssetParams }),
  },
} as const satisfies Record<string, ApiRoute>;

/**
 * The first segment of a client link's address, `/c/<secret>`: the pages below, the path a new
 * link is given, and the log's redaction, which cuts the segment after it (src/server/log-redaction.ts
 * compares it with one segment, so it must stay one).
 */
export const clientLinkSegment = 'c';

/** The address of the page a client link opens, to put after the server's address. */
export const clientLinkPath = (secret: string): string => `/${clientLinkSegment}/${secret}`;

/**
 * The client's side of a client link: pages for people, outside the JSON API and its document.
 * `/c` and `/c/*` answer every other address under it as a miss.
 */
export const pageRoutes = {
  clientLinkPage: { method: 'GET', path: `/${clientLinkSegment}/:secret` },
  clientLinkPdf: { method: 'GET', path: `/${clientLinkSegment}/:secret/statement.pdf` },
  clientLinkCsv: { method: 'GET', path: `/${clientLinkSegment}/:secret/statement.csv` },
  clientLinkRoot: { method: 'GET', path: `/${clientLinkSegment}` },
  clientLinkOther: { method: 'GET', path: `/${clientLinkSegment}/*` },
} as const satisfies Record<string, Route>;

/** The parameter names of a path: `id` and `entryId` in `/api/clients/:id/entries/:entryId/void`. */
export type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The schemas a route's description loads, by type. */
export type SchemasOf<Described extends Route> = Described extends {
  schemas: (modules: SchemaModules) => infer Schemas extends RouteSchemas;
}
  ? Schemas
  : Record<never, never>;

/** What a call of the route sends besides its method: path parameters, body, query. */
export type ApiCall<Described extends Route> = ([ParamNames<Described['path']>] extends [never]
  ? unknown
  : { params: Record<ParamNames<Described['path']>, string | number> }) &
  (SchemasOf<Described> extends { body: infer Body extends z.ZodMiniType }
    ? { body: z.input<Body> }
    : unknown) &
  (SchemasOf<Described> extends { query: infer Query extends z.ZodMiniType }
    ? { query?: z.input<Query> }
    : unknown);

/** The answer of a route: its schema's type, or undefined for a 204. */
export type ApiAnswer<Described extends Route> = Described extends { status: 204 }
  ? undefined
  : SchemasOf<Described> extends { answer: infer Answer extends z.ZodMiniType }
    ? z.output<Answer>
    : undefined;
