import type { z } from 'zod/mini';
import type * as accessTokens from './schemas/access-tokens.ts';
import type * as account from './schemas/account.ts';
import type * as apiDocs from './schemas/api-docs.ts';
import type * as auth from './schemas/auth.ts';
import type * as bank from './schemas/bank.ts';
import type * as clientLinks from './schemas/client-links.ts';
import type * as clients from './schemas/clients.ts';
import type * as events from './schemas/events.ts';
import type * as firstRun from './schemas/first-run.ts';
import type * as health from './schemas/health.ts';
import type * as language from './schemas/language.ts';
import type * as ledger from './schemas/ledger.ts';
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
}

/** A route of the JSON API, which the web app calls or links to. */
export interface ApiRoute extends Route {
  readonly path: `/api/${string}`;
}

/**
 * Every schema module of src/shared/schemas, by type only: the server hands the modules
 * themselves to each route's `schemas` when it registers the route (src/server/described-route.ts),
 * so the browser's bundle, which takes only the routes' methods and paths, loads none of them.
 */
export type SchemaModules = typeof accessTokens &
  typeof account &
  typeof apiDocs &
  typeof auth &
  typeof bank &
  typeof clientLinks &
  typeof clients &
  typeof events &
  typeof firstRun &
  typeof health &
  typeof language &
  typeof ledger &
  typeof overview &
  typeof reminders &
  typeof restore &
  typeof settings &
  typeof statement;

/**
 * Every route of the JSON API. A route without `answer` answers 204, a file or a stream; one
 * without `body` takes none. A test checks that the server registers exactly these and the pages
 * below (modules/api-docs/api-routes.test.ts).
 */
export const apiRoutes = {
  health: {
    method: 'GET',
    path: '/api/health',
    schemas: (s) => ({ answer: s.healthSchema, otherAnswers: { 503: s.healthSchema } }),
  },
  session: {
    method: 'GET',
    path: '/api/auth/session',
    schemas: (s) => ({ answer: s.sessionResponseSchema }),
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    schemas: (s) => ({ body: s.loginBodySchema, answer: s.userResponseSchema }),
  },
  join: {
    method: 'POST',
    path: '/api/auth/join',
    status: 201,
    schemas: (s) => ({ body: s.joinBodySchema, answer: s.userResponseSchema }),
  },
  logout: { method: 'POST', path: '/api/auth/logout' },
  forgotPassword: {
    method: 'POST',
    path: '/api/auth/forgot-password',
    status: 202,
    schemas: (s) => ({
      body: s.forgotPasswordBodySchema,
      answer: s.forgotPasswordResponseSchema,
    }),
  },
  resetPassword: {
    method: 'POST',
    path: '/api/auth/password-reset',
    schemas: (s) => ({ body: s.passwordResetBodySchema }),
  },

  accountSessions: {
    method: 'GET',
    path: '/api/account/sessions',
    schemas: (s) => ({ answer: s.accountSessionsSchema }),
  },
  endSession: {
    method: 'DELETE',
    path: '/api/account/sessions/:id',
    schemas: (s) => ({ params: s.sessionIdParamsSchema }),
  },
  endOtherSessions: {
    method: 'POST',
    path: '/api/account/sessions/end-others',
    schemas: (s) => ({ answer: s.endedSessionsSchema }),
  },
  changePassword: {
    method: 'POST',
    path: '/api/account/password',
    schemas: (s) => ({ body: s.changePasswordBodySchema }),
  },
  changeEmail: {
    method: 'POST',
    path: '/api/account/email',
    schemas: (s) => ({ body: s.changeEmailBodySchema, answer: s.changedEmailSchema }),
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/api/account',
    schemas: (s) => ({ body: s.deleteAccountBodySchema }),
  },
  accountClientLinks: {
    method: 'GET',
    path: '/api/account/client-links',
    schemas: (s) => ({ answer: s.accountClientLinksSchema }),
  },
  revokeAccountClientLinks: {
    method: 'POST',
    path: '/api/account/client-links/revoke',
    schemas: (s) => ({
      body: s.revokeClientLinksBodySchema,
      answer: s.revokedClientLinksSchema,
    }),
  },

  adminUsers: {
    method: 'GET',
    path: '/api/admin/users',
    schemas: (s) => ({ answer: s.adminUsersSchema }),
  },
  disableUser: {
    method: 'POST',
    path: '/api/admin/users/:id/disable',
    schemas: (s) => ({ params: s.userIdParamsSchema }),
  },
  enableUser: {
    method: 'POST',
    path: '/api/admin/users/:id/enable',
    schemas: (s) => ({ params: s.userIdParamsSchema }),
  },
  createResetLink: {
    method: 'POST',
    path: '/api/admin/users/:id/password-reset',
    status: 201,
    schemas: (s) => ({ params: s.userIdParamsSchema, answer: s.oneTimeLinkSchema }),
  },
  createInvitation: {
    method: 'POST',
    path: '/api/admin/invitations',
    status: 201,
    schemas: (s) => ({ body: s.invitationBodySchema, answer: s.oneTimeLinkSchema }),
  },

  publicSettings: {
    method: 'GET',
    path: '/api/settings/public',
    schemas: (s) => ({ answer: s.publicSettingsSchema }),
  },
  settings: {
    method: 'GET',
    path: '/api/settings',
    schemas: (s) => ({ answer: s.settingsSchema }),
  },
  saveSettings: {
    method: 'PUT',
    path: '/api/settings',
    schemas: (s) => ({ body: s.settingsUpdateSchema, answer: s.settingsSchema }),
  },
  saveLanguage: {
    method: 'PUT',
    path: '/api/settings/language',
    schemas: (s) => ({ body: s.languageUpdateSchema, answer: s.languageUpdateSchema }),
  },
  finishSetup: {
    method: 'PUT',
    path: '/api/settings/setup',
    schemas: (s) => ({ body: s.setupSchema, answer: s.firstRunSchema }),
  },

  overview: {
    method: 'GET',
    path: '/api/overview',
    schemas: (s) => ({ answer: s.overviewSchema }),
  },
  ageing: {
    method: 'GET',
    path: '/api/ageing',
    schemas: (s) => ({ answer: s.ageingSchema }),
  },
  // The answer is checked against its schema as it is computed, then sent as bytes (gzipped).
  clientList: {
    method: 'GET',
    path: '/api/clients',
    schemas: (s) => ({ query: s.clientListQuerySchema, answer: s.clientListSchema }),
    checkedByHandler: ['answer'],
  },
  client: {
    method: 'GET',
    path: '/api/clients/:id',
    schemas: (s) => ({ params: s.clientIdParams, answer: s.clientSchema }),
  },
  clientHistory: {
    method: 'GET',
    path: '/api/clients/:id/history',
    schemas: (s) => ({ params: s.clientIdParams, answer: s.historyListSchema }),
  },
  addClient: {
    method: 'POST',
    path: '/api/clients',
    status: 201,
    schemas: (s) => ({ body: s.clientInputSchema, answer: s.clientSchema }),
  },
  updateClient: {
    method: 'PUT',
    path: '/api/clients/:id',
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.clientUpdateSchema,
      answer: s.clientSchema,
    }),
  },
  deleteClient: {
    method: 'DELETE',
    path: '/api/clients/:id',
    status: 204,
    schemas: (s) => ({ params: s.clientIdParams }),
  },

  updateBalance: {
    method: 'PATCH',
    path: '/api/clients/:id/balance',
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.balanceUpdateSchema,
      answer: s.clientSchema,
    }),
  },
  clientEntries: {
    method: 'GET',
    path: '/api/clients/:id/entries',
    schemas: (s) => ({
      params: s.clientIdParams,
      query: s.entryListQuerySchema,
      answer: s.entryListSchema,
    }),
  },
  recordEntry: {
    method: 'POST',
    path: '/api/clients/:id/entries',
    status: 201,
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.entryInputSchema,
      answer: s.recordedEntrySchema,
    }),
  },
  voidEntry: {
    method: 'POST',
    path: '/api/clients/:id/entries/:entryId/void',
    status: 201,
    schemas: (s) => ({
      params: s.entryParams,
      body: s.voidInputSchema,
      answer: s.recordedEntrySchema,
    }),
  },

  statement: {
    method: 'GET',
    path: '/api/clients/:id/statement',
    schemas: (s) => ({
      params: s.clientIdParams,
      query: s.statementQuerySchema,
      answer: s.statementSchema,
    }),
  },
  // Files: the browser downloads or opens these itself.
  statementCsv: {
    method: 'GET',
    path: '/api/clients/:id/statement.csv',
    schemas: (s) => ({ params: s.clientIdParams, query: s.statementQuerySchema }),
  },
  statementPdf: {
    method: 'GET',
    path: '/api/clients/:id/statement.pdf',
    schemas: (s) => ({ params: s.clientIdParams, query: s.statementQuerySchema }),
  },
  sendStatement: {
    method: 'POST',
    path: '/api/clients/:id/statement/send',
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.statementSendSchema,
      answer: s.statementSentSchema,
    }),
  },

  clientLink: {
    method: 'GET',
    path: '/api/clients/:id/link',
    schemas: (s) => ({ params: s.clientIdParams, answer: s.clientLinkStateSchema }),
  },
  createClientLink: {
    method: 'POST',
    path: '/api/clients/:id/link',
    status: 201,
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.clientLinkInputSchema,
      answer: s.createdClientLinkSchema,
    }),
  },
  revokeClientLink: {
    method: 'DELETE',
    path: '/api/clients/:id/link',
    schemas: (s) => ({ params: s.clientIdParams }),
  },
  setClientLanguage: {
    method: 'PUT',
    path: '/api/clients/:id/language',
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.clientLanguageUpdateSchema,
      answer: s.clientLanguageUpdateSchema,
    }),
  },

  reminderPlan: {
    method: 'GET',
    path: '/api/reminders/plan',
    schemas: (s) => ({ answer: s.reminderPlanSchema }),
  },
  saveReminderPlan: {
    method: 'PUT',
    path: '/api/reminders/plan',
    schemas: (s) => ({ body: s.reminderPlanSchema, answer: s.reminderPlanSchema }),
  },
  clientReminders: {
    method: 'GET',
    path: '/api/clients/:id/reminders',
    schemas: (s) => ({ params: s.clientIdParams, answer: s.clientRemindersSchema }),
  },
  setClientReminders: {
    method: 'PUT',
    path: '/api/clients/:id/reminders',
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.clientRemindersSchema,
      answer: s.clientRemindersSchema,
    }),
  },
  reminders: {
    method: 'GET',
    path: '/api/reminders',
    schemas: (s) => ({ query: s.reminderListQuerySchema, answer: s.reminderListSchema }),
  },
  remindersDueToday: {
    method: 'GET',
    path: '/api/reminders/due-today',
    schemas: (s) => ({ answer: s.dueRemindersSchema }),
  },
  markReminderSent: {
    method: 'POST',
    path: '/api/reminders/due-today/:id/sent',
    schemas: (s) => ({
      params: s.clientIdParams,
      body: s.markSentBodySchema,
      answer: s.markedSentSchema,
    }),
  },
  reminderPreview: {
    method: 'GET',
    path: '/api/reminders/preview',
    schemas: (s) => ({ answer: s.reminderPreviewSchema }),
  },

  liveEvents: {
    method: 'GET',
    path: '/api/events',
    schemas: (s) => ({ query: s.eventStreamQuerySchema }),
  },

  tokens: {
    method: 'GET',
    path: '/api/tokens',
    schemas: (s) => ({ answer: s.accessTokenListSchema }),
  },
  createToken: {
    method: 'POST',
    path: '/api/tokens',
    status: 201,
    schemas: (s) => ({
      body: s.accessTokenInputSchema,
      answer: s.createdAccessTokenSchema,
    }),
  },
  revokeToken: {
    method: 'DELETE',
    path: '/api/tokens/:id',
    schemas: (s) => ({ params: s.accessTokenIdParams }),
  },

  exportClientsCsv: {
    method: 'GET',
    path: '/api/clients/export.csv',
    schemas: (s) => ({ query: s.clientListQuerySchema }),
  },
  exportEntriesCsv: { method: 'GET', path: '/api/entries/export.csv' },
  exportJson: { method: 'GET', path: '/api/export.json' },
  // The rows' results are checked a slice at a time as they are written (import-rows.ts).
  importClients: {
    method: 'POST',
    path: '/api/clients/import',
    schemas: (s) => ({ body: s.importBodySchema, answer: s.importResultSchema }),
    checkedByHandler: ['answer'],
  },
  // The body is an export file as read from disk, parsed and checked by the restore command.
  restore: {
    method: 'POST',
    path: '/api/restore',
    schemas: (s) => ({
      body: s.restoreBodySchema,
      query: s.restoreQuerySchema,
      answer: s.restoreSummarySchema,
    }),
    checkedByHandler: ['body'],
  },

  bankPreview: {
    method: 'POST',
    path: '/api/bank/preview',
    schemas: (s) => ({ body: s.bankPreviewBodySchema, answer: s.bankPreviewSchema }),
  },
  bankConfirm: {
    method: 'POST',
    path: '/api/bank/confirm',
    schemas: (s) => ({ body: s.bankConfirmBodySchema, answer: s.bankConfirmedSchema }),
  },
  bankLayouts: {
    method: 'GET',
    path: '/api/bank/layouts',
    schemas: (s) => ({ answer: s.bankLayoutsSchema }),
  },
  bankUndo: {
    method: 'POST',
    path: '/api/bank/batches/:id/undo',
    schemas: (s) => ({ params: s.bankBatchParams, answer: s.bankUndoneSchema }),
  },
  bankRules: {
    method: 'GET',
    path: '/api/bank/rules',
    schemas: (s) => ({ answer: s.bankRuleListSchema }),
  },
  forgetBankRule: {
    method: 'DELETE',
    path: '/api/bank/rules/:id',
    status: 204,
    schemas: (s) => ({ params: s.bankRuleParams }),
  },

  openApiDocument: { method: 'GET', path: '/api/openapi.json' },
  apiDocs: { method: 'GET', path: '/api/docs' },
  apiDocsFile: {
    method: 'GET',
    path: '/api/docs/:file',
    schemas: (s) => ({ params: s.apiDocsAssetParams }),
  },
} as const satisfies Record<string, ApiRoute>;

/**
 * The client's side of a client link: pages for people, outside the JSON API and its document.
 * `/c` and `/c/*` answer every other address under it as a miss.
 */
export const pageRoutes = {
  clientLinkPage: { method: 'GET', path: '/c/:secret' },
  clientLinkPdf: { method: 'GET', path: '/c/:secret/statement.pdf' },
  clientLinkCsv: { method: 'GET', path: '/c/:secret/statement.csv' },
  clientLinkRoot: { method: 'GET', path: '/c' },
  clientLinkOther: { method: 'GET', path: '/c/*' },
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
