import {
  accountClientLinksSchema,
  revokeClientLinksBodySchema,
  revokedClientLinksSchema,
  clientLanguageUpdateSchema,
  clientLinkInputSchema,
  clientLinkStateSchema,
  createdClientLinkSchema,
} from '../../../shared/schemas/client-links.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { apiRoutes, type ApiRoute } from '../../../shared/api-routes.ts';
import {
  accessTokenInputSchema,
  accessTokenListSchema,
  createdAccessTokenSchema,
} from '../../../shared/schemas/access-tokens.ts';
import {
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
} from '../../../shared/schemas/account.ts';
import {
  forgotPasswordBodySchema,
  forgotPasswordResponseSchema,
  joinBodySchema,
  loginBodySchema,
  sessionResponseSchema,
  userResponseSchema,
} from '../../../shared/schemas/auth.ts';
import {
  ageingSchema,
  balanceUpdateSchema,
  clientInputSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSchema,
  clientUpdateSchema,
  importBodySchema,
  importResultSchema,
} from '../../../shared/schemas/clients.ts';
import { eventStreamQuerySchema, historyListSchema } from '../../../shared/schemas/events.ts';
import { languageUpdateSchema } from '../../../shared/schemas/language.ts';
import {
  entryInputSchema,
  entryListQuerySchema,
  entryListSchema,
  recordedEntrySchema,
  voidInputSchema,
} from '../../../shared/schemas/ledger.ts';
import { overviewSchema } from '../../../shared/schemas/overview.ts';
import { restoreQuerySchema, restoreSummarySchema } from '../../../shared/schemas/restore.ts';
import {
  bankConfirmBodySchema,
  bankConfirmedSchema,
  bankLayoutsSchema,
  bankPreviewBodySchema,
  bankPreviewSchema,
  bankRuleListSchema,
  bankUndoneSchema,
} from '../../../shared/schemas/bank.ts';
import { firstRunSchema } from '../../../shared/schemas/first-run.ts';
import {
  publicSettingsSchema,
  settingsSchema,
  settingsUpdateSchema,
  setupSchema,
} from '../../../shared/schemas/settings.ts';
import {
  statementQuerySchema,
  statementSchema,
  statementSendSchema,
  statementSentSchema,
} from '../../../shared/schemas/statement.ts';
import {
  clientRemindersSchema,
  dueRemindersSchema,
  markedSentSchema,
  markSentBodySchema,
  reminderListQuerySchema,
  reminderListSchema,
  reminderPlanSchema,
  reminderPreviewSchema,
} from '../../../shared/schemas/reminders.ts';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';

/** The schemas a route of the table names, as values: the table itself holds only their types. */
type SchemasOf<Route extends ApiRoute> = Pick<
  Route,
  Extract<keyof Route, 'body' | 'query' | 'answer'>
>;

/**
 * The same schemas as the table's, which the compiler holds to it (`satisfies`), so the test can
 * compare them with what the server publishes.
 */
const schemasOfRoutes = {
  session: { answer: sessionResponseSchema },
  login: { body: loginBodySchema, answer: userResponseSchema },
  join: { body: joinBodySchema, answer: userResponseSchema },
  logout: {},
  forgotPassword: { body: forgotPasswordBodySchema, answer: forgotPasswordResponseSchema },
  resetPassword: { body: passwordResetBodySchema },
  accountSessions: { answer: accountSessionsSchema },
  endSession: {},
  endOtherSessions: { answer: endedSessionsSchema },
  changePassword: { body: changePasswordBodySchema },
  changeEmail: { body: changeEmailBodySchema, answer: changedEmailSchema },
  deleteAccount: { body: deleteAccountBodySchema },
  accountClientLinks: { answer: accountClientLinksSchema },
  revokeAccountClientLinks: { body: revokeClientLinksBodySchema, answer: revokedClientLinksSchema },
  adminUsers: { answer: adminUsersSchema },
  disableUser: {},
  enableUser: {},
  createResetLink: { answer: oneTimeLinkSchema },
  createInvitation: { body: invitationBodySchema, answer: oneTimeLinkSchema },
  publicSettings: { answer: publicSettingsSchema },
  settings: { answer: settingsSchema },
  saveSettings: { body: settingsUpdateSchema, answer: settingsSchema },
  saveLanguage: { body: languageUpdateSchema, answer: languageUpdateSchema },
  finishSetup: { body: setupSchema, answer: firstRunSchema },
  overview: { answer: overviewSchema },
  ageing: { answer: ageingSchema },
  clientList: { query: clientListQuerySchema, answer: clientListSchema },
  client: { answer: clientSchema },
  clientHistory: { answer: historyListSchema },
  addClient: { body: clientInputSchema, answer: clientSchema },
  updateClient: { body: clientUpdateSchema, answer: clientSchema },
  updateBalance: { body: balanceUpdateSchema, answer: clientSchema },
  deleteClient: {},
  clientEntries: { query: entryListQuerySchema, answer: entryListSchema },
  recordEntry: { body: entryInputSchema, answer: recordedEntrySchema },
  voidEntry: { body: voidInputSchema, answer: recordedEntrySchema },
  statement: { query: statementQuerySchema, answer: statementSchema },
  exportClientsCsv: { query: clientListQuerySchema },
  exportEntriesCsv: {},
  exportJson: {},
  apiDocs: {},
  liveEvents: { query: eventStreamQuerySchema },
  statementCsv: { query: statementQuerySchema },
  statementPdf: { query: statementQuerySchema },
  sendStatement: { body: statementSendSchema, answer: statementSentSchema },
  clientLink: { answer: clientLinkStateSchema },
  createClientLink: { body: clientLinkInputSchema, answer: createdClientLinkSchema },
  revokeClientLink: {},
  setClientLanguage: { body: clientLanguageUpdateSchema, answer: clientLanguageUpdateSchema },
  reminderPlan: { answer: reminderPlanSchema },
  saveReminderPlan: { body: reminderPlanSchema, answer: reminderPlanSchema },
  clientReminders: { answer: clientRemindersSchema },
  setClientReminders: { body: clientRemindersSchema, answer: clientRemindersSchema },
  reminders: { query: reminderListQuerySchema, answer: reminderListSchema },
  remindersDueToday: { answer: dueRemindersSchema },
  markReminderSent: { body: markSentBodySchema, answer: markedSentSchema },
  reminderPreview: { answer: reminderPreviewSchema },
  tokens: { answer: accessTokenListSchema },
  createToken: { body: accessTokenInputSchema, answer: createdAccessTokenSchema },
  revokeToken: {},
  importClients: { body: importBodySchema, answer: importResultSchema },
  restore: { body: z.unknown(), query: restoreQuerySchema, answer: restoreSummarySchema },
  bankPreview: { body: bankPreviewBodySchema, answer: bankPreviewSchema },
  bankConfirm: { body: bankConfirmBodySchema, answer: bankConfirmedSchema },
  bankLayouts: { answer: bankLayoutsSchema },
  bankUndo: { answer: bankUndoneSchema },
  bankRules: { answer: bankRuleListSchema },
  forgetBankRule: {},
} satisfies { [Name in keyof typeof apiRoutes]: SchemasOf<(typeof apiRoutes)[Name]> };

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

let testApp: TestApp;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  testApp = await buildTestApp();
  const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' });
  paths = response.json<{ paths: typeof paths }>().paths;
});
afterAll(async () => {
  await testApp.close();
});

const routes = Object.entries(apiRoutes) as [keyof typeof apiRoutes, ApiRoute][];

/**
 * What the server checks without publishing it, as the OpenAPI test lists them: the schema is
 * then compared by the route's own tests, not here.
 */
const unpublished = new Map<string, string>([
  ['clientList answer', 'checked against clientListSchema as it is computed, then cached'],
  ['importClients answer', 'checked against importRowResultSchema a slice at a time'],
  ['restore body', 'the export file as bytes, parsed and checked by the restore command'],
]);

/** A schema as the OpenAPI document writes it. */
const jsonSchema = (schema: z.ZodMiniType | undefined, io: 'input' | 'output') => {
  if (!schema) return undefined;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return rest;
};

describe("the web app's route table", () => {
  it('names only routes the server registers, with their method and path', () => {
    const registered = new Set(
      testApp.app.routeTable.map((route) => `${route.method} ${route.url}`),
    );
    const missing = routes
      .map(([, route]) => `${route.method} ${route.path}`)
      .filter((route) => !registered.has(route));
    expect(routes.length).toBeGreaterThan(40);
    expect(missing).toEqual([]);
  });

  it.each(routes)('%s: takes and answers what the server validates and sends', (name, route) => {
    const operation = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    expect(operation).toBeDefined();
    const schemas: SchemasOf<ApiRoute> = schemasOfRoutes[name];
    const queryNames = (operation?.parameters ?? [])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);
    const published = {
      body: operation?.requestBody?.content['application/json']?.schema,
      query: queryNames.length > 0 ? queryNames : undefined,
      answer: Object.entries(operation?.responses ?? {}).find(([status]) =>
        /^2\d\d$/.test(status),
      )?.[1].content?.['application/json']?.schema,
    };
    const expected = {
      body: unpublished.has(`${name} body`) ? undefined : jsonSchema(schemas.body, 'input'),
      query: schemas.query && Object.keys(jsonSchema(schemas.query, 'input')?.properties ?? {}),
      answer: unpublished.has(`${name} answer`) ? undefined : jsonSchema(schemas.answer, 'output'),
    };
    expect(published).toEqual(expected);
  });
});
