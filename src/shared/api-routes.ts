import type { z } from 'zod/mini';
import type {
  bankConfirmBodySchema,
  bankConfirmedSchema,
  bankLayoutsSchema,
  bankPreviewBodySchema,
  bankPreviewSchema,
  bankRuleListSchema,
  bankUndoneSchema,
} from './schemas/bank.ts';
import type {
  accessTokenInputSchema,
  accessTokenListSchema,
  createdAccessTokenSchema,
} from './schemas/access-tokens.ts';
import type {
  accountSessionsSchema,
  adminUsersSchema,
  changedEmailSchema,
  changeEmailBodySchema,
  changePasswordBodySchema,
  deleteAccountBodySchema,
  endedSessionsSchema,
  invitationBodySchema,
  oneTimeLinkSchema,
  passwordResetBodySchema,
} from './schemas/account.ts';
import type {
  forgotPasswordBodySchema,
  forgotPasswordResponseSchema,
  joinBodySchema,
  loginBodySchema,
  sessionResponseSchema,
  userResponseSchema,
} from './schemas/auth.ts';
import type {
  ageingSchema,
  balanceUpdateSchema,
  clientInputSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSchema,
  clientUpdateSchema,
  importBodySchema,
  importResultSchema,
} from './schemas/clients.ts';
import type {
  accountClientLinksSchema,
  clientLanguageUpdateSchema,
  clientLinkInputSchema,
  clientLinkStateSchema,
  createdClientLinkSchema,
  revokeClientLinksBodySchema,
  revokedClientLinksSchema,
} from './schemas/client-links.ts';
import type { eventStreamQuerySchema, historyListSchema } from './schemas/events.ts';
import type { languageUpdateSchema } from './schemas/language.ts';
import type {
  entryInputSchema,
  entryListQuerySchema,
  entryListSchema,
  recordedEntrySchema,
  voidInputSchema,
} from './schemas/ledger.ts';
import type { overviewSchema } from './schemas/overview.ts';
import type { restoreQuerySchema, restoreSummarySchema } from './schemas/restore.ts';
import type { firstRunSchema } from './schemas/first-run.ts';
import type {
  publicSettingsSchema,
  settingsSchema,
  settingsUpdateSchema,
  setupSchema,
} from './schemas/settings.ts';
import type {
  clientRemindersSchema,
  dueRemindersSchema,
  markedSentSchema,
  markSentBodySchema,
  reminderListQuerySchema,
  reminderListSchema,
  reminderPlanSchema,
  reminderPreviewSchema,
} from './schemas/reminders.ts';
import type {
  statementQuerySchema,
  statementSchema,
  statementSendSchema,
  statementSentSchema,
} from './schemas/statement.ts';

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of our API as the browser calls it: its method and its path as Fastify writes it
 * (`:id` for a parameter), and the schemas the server validates its body and query with and
 * checks its answer against. The schemas are there for the compiler only (see `schema`).
 */
export interface ApiRoute {
  readonly method: ApiMethod;
  readonly path: `/api/${string}`;
  readonly body?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly answer?: z.ZodMiniType;
}

/**
 * A schema's type, named in the table without loading the schema: the browser's first page
 * imports no schema module (decision 013), so the table holds only types and strings.
 */
function schema<Schema extends z.ZodMiniType>(): Schema {
  return undefined as unknown as Schema;
}

/**
 * Every route the web app calls, or links to. A route without `answer` answers 204 (or a file);
 * one without `body` takes none. A test checks that the server registers each of them with this
 * method and path, and publishes these schemas for them (modules/api-docs/api-routes.test.ts).
 */
export const apiRoutes = {
  session: {
    method: 'GET',
    path: '/api/auth/session',
    answer: schema<typeof sessionResponseSchema>(),
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    body: schema<typeof loginBodySchema>(),
    answer: schema<typeof userResponseSchema>(),
  },
  join: {
    method: 'POST',
    path: '/api/auth/join',
    body: schema<typeof joinBodySchema>(),
    answer: schema<typeof userResponseSchema>(),
  },
  logout: { method: 'POST', path: '/api/auth/logout' },
  forgotPassword: {
    method: 'POST',
    path: '/api/auth/forgot-password',
    body: schema<typeof forgotPasswordBodySchema>(),
    answer: schema<typeof forgotPasswordResponseSchema>(),
  },
  resetPassword: {
    method: 'POST',
    path: '/api/auth/password-reset',
    body: schema<typeof passwordResetBodySchema>(),
  },

  accountSessions: {
    method: 'GET',
    path: '/api/account/sessions',
    answer: schema<typeof accountSessionsSchema>(),
  },
  endSession: { method: 'DELETE', path: '/api/account/sessions/:id' },
  endOtherSessions: {
    method: 'POST',
    path: '/api/account/sessions/end-others',
    answer: schema<typeof endedSessionsSchema>(),
  },
  changePassword: {
    method: 'POST',
    path: '/api/account/password',
    body: schema<typeof changePasswordBodySchema>(),
  },
  changeEmail: {
    method: 'POST',
    path: '/api/account/email',
    body: schema<typeof changeEmailBodySchema>(),
    answer: schema<typeof changedEmailSchema>(),
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/api/account',
    body: schema<typeof deleteAccountBodySchema>(),
  },
  accountClientLinks: {
    method: 'GET',
    path: '/api/account/client-links',
    answer: schema<typeof accountClientLinksSchema>(),
  },
  revokeAccountClientLinks: {
    method: 'POST',
    path: '/api/account/client-links/revoke',
    body: schema<typeof revokeClientLinksBodySchema>(),
    answer: schema<typeof revokedClientLinksSchema>(),
  },

  adminUsers: {
    method: 'GET',
    path: '/api/admin/users',
    answer: schema<typeof adminUsersSchema>(),
  },
  disableUser: { method: 'POST', path: '/api/admin/users/:id/disable' },
  enableUser: { method: 'POST', path: '/api/admin/users/:id/enable' },
  createResetLink: {
    method: 'POST',
    path: '/api/admin/users/:id/password-reset',
    answer: schema<typeof oneTimeLinkSchema>(),
  },
  createInvitation: {
    method: 'POST',
    path: '/api/admin/invitations',
    body: schema<typeof invitationBodySchema>(),
    answer: schema<typeof oneTimeLinkSchema>(),
  },

  publicSettings: {
    method: 'GET',
    path: '/api/settings/public',
    answer: schema<typeof publicSettingsSchema>(),
  },
  settings: { method: 'GET', path: '/api/settings', answer: schema<typeof settingsSchema>() },
  saveSettings: {
    method: 'PUT',
    path: '/api/settings',
    body: schema<typeof settingsUpdateSchema>(),
    answer: schema<typeof settingsSchema>(),
  },
  saveLanguage: {
    method: 'PUT',
    path: '/api/settings/language',
    body: schema<typeof languageUpdateSchema>(),
    answer: schema<typeof languageUpdateSchema>(),
  },
  finishSetup: {
    method: 'PUT',
    path: '/api/settings/setup',
    body: schema<typeof setupSchema>(),
    answer: schema<typeof firstRunSchema>(),
  },

  overview: { method: 'GET', path: '/api/overview', answer: schema<typeof overviewSchema>() },
  ageing: { method: 'GET', path: '/api/ageing', answer: schema<typeof ageingSchema>() },
  clientList: {
    method: 'GET',
    path: '/api/clients',
    query: schema<typeof clientListQuerySchema>(),
    answer: schema<typeof clientListSchema>(),
  },
  client: { method: 'GET', path: '/api/clients/:id', answer: schema<typeof clientSchema>() },
  clientHistory: {
    method: 'GET',
    path: '/api/clients/:id/history',
    answer: schema<typeof historyListSchema>(),
  },
  addClient: {
    method: 'POST',
    path: '/api/clients',
    body: schema<typeof clientInputSchema>(),
    answer: schema<typeof clientSchema>(),
  },
  updateClient: {
    method: 'PUT',
    path: '/api/clients/:id',
    body: schema<typeof clientUpdateSchema>(),
    answer: schema<typeof clientSchema>(),
  },
  updateBalance: {
    method: 'PATCH',
    path: '/api/clients/:id/balance',
    body: schema<typeof balanceUpdateSchema>(),
    answer: schema<typeof clientSchema>(),
  },
  deleteClient: { method: 'DELETE', path: '/api/clients/:id' },
  clientEntries: {
    method: 'GET',
    path: '/api/clients/:id/entries',
    query: schema<typeof entryListQuerySchema>(),
    answer: schema<typeof entryListSchema>(),
  },
  recordEntry: {
    method: 'POST',
    path: '/api/clients/:id/entries',
    body: schema<typeof entryInputSchema>(),
    answer: schema<typeof recordedEntrySchema>(),
  },
  voidEntry: {
    method: 'POST',
    path: '/api/clients/:id/entries/:entryId/void',
    body: schema<typeof voidInputSchema>(),
    answer: schema<typeof recordedEntrySchema>(),
  },
  statement: {
    method: 'GET',
    path: '/api/clients/:id/statement',
    query: schema<typeof statementQuerySchema>(),
    answer: schema<typeof statementSchema>(),
  },
  // Links: the browser downloads or opens these itself.
  exportClientsCsv: {
    method: 'GET',
    path: '/api/clients/export.csv',
    query: schema<typeof clientListQuerySchema>(),
  },
  exportEntriesCsv: { method: 'GET', path: '/api/entries/export.csv' },
  exportJson: { method: 'GET', path: '/api/export.json' },
  apiDocs: { method: 'GET', path: '/api/docs' },
  liveEvents: {
    method: 'GET',
    path: '/api/events',
    query: schema<typeof eventStreamQuerySchema>(),
  },
  statementCsv: {
    method: 'GET',
    path: '/api/clients/:id/statement.csv',
    query: schema<typeof statementQuerySchema>(),
  },
  statementPdf: {
    method: 'GET',
    path: '/api/clients/:id/statement.pdf',
    query: schema<typeof statementQuerySchema>(),
  },
  sendStatement: {
    method: 'POST',
    path: '/api/clients/:id/statement/send',
    body: schema<typeof statementSendSchema>(),
    answer: schema<typeof statementSentSchema>(),
  },

  clientLink: {
    method: 'GET',
    path: '/api/clients/:id/link',
    answer: schema<typeof clientLinkStateSchema>(),
  },
  createClientLink: {
    method: 'POST',
    path: '/api/clients/:id/link',
    body: schema<typeof clientLinkInputSchema>(),
    answer: schema<typeof createdClientLinkSchema>(),
  },
  revokeClientLink: { method: 'DELETE', path: '/api/clients/:id/link' },
  setClientLanguage: {
    method: 'PUT',
    path: '/api/clients/:id/language',
    body: schema<typeof clientLanguageUpdateSchema>(),
    answer: schema<typeof clientLanguageUpdateSchema>(),
  },
  reminderPlan: {
    method: 'GET',
    path: '/api/reminders/plan',
    answer: schema<typeof reminderPlanSchema>(),
  },
  saveReminderPlan: {
    method: 'PUT',
    path: '/api/reminders/plan',
    body: schema<typeof reminderPlanSchema>(),
    answer: schema<typeof reminderPlanSchema>(),
  },
  clientReminders: {
    method: 'GET',
    path: '/api/clients/:id/reminders',
    answer: schema<typeof clientRemindersSchema>(),
  },
  setClientReminders: {
    method: 'PUT',
    path: '/api/clients/:id/reminders',
    body: schema<typeof clientRemindersSchema>(),
    answer: schema<typeof clientRemindersSchema>(),
  },
  reminders: {
    method: 'GET',
    path: '/api/reminders',
    query: schema<typeof reminderListQuerySchema>(),
    answer: schema<typeof reminderListSchema>(),
  },
  remindersDueToday: {
    method: 'GET',
    path: '/api/reminders/due-today',
    answer: schema<typeof dueRemindersSchema>(),
  },
  markReminderSent: {
    method: 'POST',
    path: '/api/reminders/due-today/:id/sent',
    body: schema<typeof markSentBodySchema>(),
    answer: schema<typeof markedSentSchema>(),
  },
  reminderPreview: {
    method: 'GET',
    path: '/api/reminders/preview',
    answer: schema<typeof reminderPreviewSchema>(),
  },

  tokens: { method: 'GET', path: '/api/tokens', answer: schema<typeof accessTokenListSchema>() },
  createToken: {
    method: 'POST',
    path: '/api/tokens',
    body: schema<typeof accessTokenInputSchema>(),
    answer: schema<typeof createdAccessTokenSchema>(),
  },
  revokeToken: { method: 'DELETE', path: '/api/tokens/:id' },

  importClients: {
    method: 'POST',
    path: '/api/clients/import',
    body: schema<typeof importBodySchema>(),
    answer: schema<typeof importResultSchema>(),
  },
  // The body is an export file as read from disk; the restore checks it on the server.
  restore: {
    method: 'POST',
    path: '/api/restore',
    body: schema<z.ZodMiniUnknown>(),
    query: schema<typeof restoreQuerySchema>(),
    answer: schema<typeof restoreSummarySchema>(),
  },
  bankPreview: {
    method: 'POST',
    path: '/api/bank/preview',
    body: schema<typeof bankPreviewBodySchema>(),
    answer: schema<typeof bankPreviewSchema>(),
  },
  bankConfirm: {
    method: 'POST',
    path: '/api/bank/confirm',
    body: schema<typeof bankConfirmBodySchema>(),
    answer: schema<typeof bankConfirmedSchema>(),
  },
  bankLayouts: {
    method: 'GET',
    path: '/api/bank/layouts',
    answer: schema<typeof bankLayoutsSchema>(),
  },
  bankUndo: {
    method: 'POST',
    path: '/api/bank/batches/:id/undo',
    answer: schema<typeof bankUndoneSchema>(),
  },
  bankRules: {
    method: 'GET',
    path: '/api/bank/rules',
    answer: schema<typeof bankRuleListSchema>(),
  },
  forgetBankRule: { method: 'DELETE', path: '/api/bank/rules/:id' },
} as const satisfies Record<string, ApiRoute>;

/** The parameter names of a path: `id` and `entryId` in `/api/clients/:id/entries/:entryId/void`. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a call of the route sends besides its method: path parameters, body, query. */
export type ApiCall<Route extends ApiRoute> = ([ParamNames<Route['path']>] extends [never]
  ? unknown
  : { params: Record<ParamNames<Route['path']>, string | number> }) &
  (Route extends { body: infer Body extends z.ZodMiniType } ? { body: z.input<Body> } : unknown) &
  (Route extends { query: infer Query extends z.ZodMiniType }
    ? { query?: z.input<Query> }
    : unknown);

/** The answer of a route: its schema's type, or undefined for a 204. */
export type ApiAnswer<Route extends ApiRoute> = Route extends {
  answer: infer Answer extends z.ZodMiniType;
}
  ? z.output<Answer>
  : undefined;
