import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  FastifySchemaCompiler,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
  RouteHandlerMethod,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import type {
  ParamNames,
  Route,
  RouteSchemas,
  SchemaModules,
  SchemasOf,
} from '../shared/api-routes.ts';
import * as accessTokens from '../shared/schemas/access-tokens.ts';
import * as account from '../shared/schemas/account.ts';
import * as apiDocs from '../shared/schemas/api-docs.ts';
import * as auth from '../shared/schemas/auth.ts';
import * as bank from '../shared/schemas/bank.ts';
import * as books from '../shared/schemas/books.ts';
import * as clientLinks from '../shared/schemas/client-links.ts';
import * as clients from '../shared/schemas/clients.ts';
import * as events from '../shared/schemas/events.ts';
import * as firstRun from '../shared/schemas/first-run.ts';
import * as health from '../shared/schemas/health.ts';
import * as language from '../shared/schemas/language.ts';
import * as ledger from '../shared/schemas/ledger.ts';
import * as members from '../shared/schemas/members.ts';
import * as overview from '../shared/schemas/overview.ts';
import * as reminders from '../shared/schemas/reminders.ts';
import * as restore from '../shared/schemas/restore.ts';
import * as settings from '../shared/schemas/settings.ts';
import * as statement from '../shared/schemas/statement.ts';

import { bookAccessGuard } from './modules/books/access.ts';

type OnRequest = onRequestHookHandler | onRequestAsyncHookHandler;

/** What a route's handler adds to its description: nothing about its path or its schemas. */
export interface HandlerOptions {
  /** Guards that run before the body is read (requireUser, requireSession...). */
  onRequest?: OnRequest | OnRequest[];
  bodyLimit?: number;
  config?: FastifyContextConfig;
  /** For a body the handler reads as bytes and checks itself, though its schema is published. */
  validatorCompiler?: FastifySchemaCompiler<unknown>;
  /** For the OpenAPI document: its one-line summary, who may call it (`[]`: anyone), its tag. */
  summary?: string;
  security?: Record<string, string[]>[];
  tags?: string[];
  /** Left out of the OpenAPI document: a page for people, not for programs. */
  hide?: boolean;
}

type PartOf<Described extends Route, Part extends keyof RouteSchemas> =
  SchemasOf<Described> extends { [Name in Part]: infer Schema } ? Schema : undefined;

/** A part's schema as Fastify gets it: none when the handler checks that part itself. */
type Registered<Described extends Route, Part extends 'body' | 'answer'> = Described extends {
  checkedByHandler: readonly (infer Checked)[];
}
  ? Part extends Checked
    ? undefined
    : PartOf<Described, Part>
  : PartOf<Described, Part>;

type SuccessStatus<Described extends Route> = Described extends { status: infer Status }
  ? Status
  : 200;

type AnswersOf<Described extends Route> = Described extends { status: 204 }
  ? { 204: z.ZodMiniNull }
  : Registered<Described, 'answer'> extends infer Answer extends z.ZodMiniType
    ? { [Status in SuccessStatus<Described> & number]: Answer }
    : undefined;

type ResponseOf<Described extends Route> =
  SchemasOf<Described> extends { otherAnswers: infer Others }
    ? AnswersOf<Described> & Others
    : AnswersOf<Described>;

/** The Fastify schema a description gives, by type: what types the handler's request and reply. */
type FastifySchemaOf<Described extends Route> = {
  params: PartOf<Described, 'params'>;
  querystring: PartOf<Described, 'query'>;
  body: Registered<Described, 'body'>;
  response: ResponseOf<Described>;
};

/** A path without a params schema (a page's `:secret`) still names its parameters. */
type GenericOf<Described extends Route> =
  SchemasOf<Described> extends { params: z.ZodMiniType }
    ? RouteGenericInterface
    : { Params: Record<ParamNames<Described['path']>, string> };

type DescribedHandler<Described extends Route> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  GenericOf<Described>,
  unknown,
  FastifySchemaOf<Described>,
  ZodTypeProvider
>;

/** What each route's description picks its schemas from, module by module. */
export const schemaModules: SchemaModules = {
  accessTokens,
  account,
  apiDocs,
  auth,
  bank,
  books,
  clientLinks,
  clients,
  events,
  firstRun,
  health,
  language,
  ledger,
  members,
  overview,
  reminders,
  restore,
  settings,
  statement,
};

const noContent = z.null();

function fastifySchema(route: Route, schemas: RouteSchemas, options: HandlerOptions) {
  const checked = route.checkedByHandler ?? [];
  const schema: FastifySchema & Record<string, unknown> = {};
  if (options.summary !== undefined) schema.summary = options.summary;
  if (options.tags !== undefined) schema.tags = options.tags;
  if (options.security !== undefined) schema.security = options.security;
  if (options.hide) schema.hide = true;
  if (schemas.params) schema.params = schemas.params;
  if (schemas.query) schema.querystring = schemas.query;
  if (schemas.body && !checked.includes('body')) schema.body = schemas.body;
  const response: Record<number, z.ZodMiniType> = { ...schemas.otherAnswers };
  if (route.status === 204) response[204] = noContent;
  else if (schemas.answer && !checked.includes('answer'))
    response[route.status ?? 200] = schemas.answer;
  if (Object.keys(response).length > 0) schema.response = response;
  return schema;
}

/**
 * Registers the handler of a described route (src/shared/api-routes.ts): the method, the path and
 * the schemas come from its description, so none of them is written a second time; the request
 * and the reply are typed from the same schemas.
 */
export function handle<Described extends Route>(
  app: FastifyInstance,
  route: Described,
  ...[optionsOrHandler, handlerAfterOptions]:
    | [handler: DescribedHandler<Described>]
    | [options: HandlerOptions, handler: DescribedHandler<Described>]
): void {
  const [options, handler] =
    handlerAfterOptions === undefined
      ? [{}, optionsOrHandler as DescribedHandler<Described>]
      : [optionsOrHandler as HandlerOptions, handlerAfterOptions];
  const schemas = route.schemas?.(schemaModules) ?? {};
  const { bodyLimit, config, validatorCompiler } = options;
  // After the route's own guards (which find the member): what the member's role allows.
  const onRequest = [
    ...[options.onRequest ?? []].flat(),
    ...(route.access === undefined ? [] : [bookAccessGuard({ ...route, access: route.access })]),
  ];
  app.route({
    method: route.method,
    url: route.path,
    schema: fastifySchema(route, schemas, options),
    ...(onRequest.length === 0 ? {} : { onRequest }),
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
    ...(config === undefined ? {} : { config }),
    ...(validatorCompiler === undefined ? {} : { validatorCompiler }),
    // Typed above from the same description the schema was built from.
    handler: handler as unknown as RouteHandlerMethod,
  });
}
