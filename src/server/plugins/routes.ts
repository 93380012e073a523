import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { apiDocsRoutes } from '../modules/api-docs/api-docs.routes.ts';
import { openApi } from '../modules/api-docs/openapi.ts';
import { accountRoutes } from '../modules/auth/account.routes.ts';
import { adminRoutes } from '../modules/auth/admin.routes.ts';
import { authRoutes } from '../modules/auth/auth.routes.ts';
import { rejectCrossSite } from '../modules/auth/cross-site.ts';
import { forgotPasswordRoutes } from '../modules/auth/forgot-password.routes.ts';
import { bankRoutes } from '../modules/bank/bank.routes.ts';
import { booksRoutes } from '../modules/books/books.routes.ts';
import { accountLinksRoutes } from '../modules/client-links/account-links.routes.ts';
import { clientLinkPageRoutes } from '../modules/client-links/client-link-page.routes.ts';
import { clientLinksRoutes } from '../modules/client-links/client-links.routes.ts';
import { clientsRoutes } from '../modules/clients/clients.routes.ts';
import { eventsRoutes } from '../modules/events/events.routes.ts';
import { healthRoutes } from '../modules/health/health.routes.ts';
import { idempotency } from '../modules/idempotency/idempotency.ts';
import { ledgerRoutes } from '../modules/ledger/ledger.routes.ts';
import { overviewRoutes } from '../modules/overview/overview.routes.ts';
import { remindersRoutes } from '../modules/reminders/reminders.routes.ts';
import { settingsRoutes } from '../modules/settings/settings.routes.ts';
import { statementRoutes } from '../modules/statements/statement.routes.ts';
import { bearerTokens } from '../modules/tokens/bearer.ts';
import { tokensRoutes } from '../modules/tokens/tokens.routes.ts';
import { importRoutes } from '../modules/transfer/import.routes.ts';
import { restoreRoutes } from '../modules/transfer/restore.routes.ts';
import { transferRoutes } from '../modules/transfer/transfer.routes.ts';
import { isApiPath, localErrorReply } from './core.ts';

export interface RoutesOptions {
  /** The built browser app, served with its screens' deep links; none in most tests. */
  clientDir: string | null;
}

/**
 * Every route: the JSON API (each module's handlers for the routes described in
 * src/shared/api-routes.ts), the client link's pages, the browser app's files, and the 404.
 */
export const routes = fp<RoutesOptions>(
  async (app: FastifyInstance, { clientDir }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('sessionTokenHash', null);
    app.decorateRequest('book', null);
    app.addHook('onRequest', rejectCrossSite);
    idempotency(app);
    // Before the routes: it collects them as they are registered.
    await openApi(app);

    await app.register(async (api) => {
      // First: the token's owner is the user before any route's own guard looks.
      await bearerTokens(api);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(accountRoutes);
      await api.register(forgotPasswordRoutes);
      await api.register(adminRoutes);
      await api.register(clientsRoutes);
      await api.register(ledgerRoutes);
      await api.register(overviewRoutes);
      await api.register(statementRoutes);
      await api.register(clientLinksRoutes);
      await api.register(accountLinksRoutes);
      await api.register(settingsRoutes);
      await api.register(remindersRoutes);
      await api.register(eventsRoutes);
      await api.register(transferRoutes);
      await api.register(importRoutes);
      await api.register(restoreRoutes);
      await api.register(bankRoutes);
      await api.register(booksRoutes);
      await api.register(tokensRoutes);
      await api.register(apiDocsRoutes);
    });
    // Outside /api: a client's page, with no session, no cookie and a policy of its own.
    await app.register(clientLinkPageRoutes);

    const indexHtml = clientDir ? path.join(clientDir, 'index.html') : null;
    if (clientDir && indexHtml && existsSync(indexHtml)) {
      await app.register(fastifyStatic, {
        root: clientDir,
        index: 'index.html',
        preCompressed: true,
        // The build keeps source maps for whoever runs the server, not for every visitor.
        allowedPath: (pathName: string) => !pathName.toLowerCase().endsWith('.map'),
        setHeaders: (reply: { header(name: string, value: string): unknown }, filePath: string) => {
          // Named by content hash: they never change under one name.
          const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
          reply.header(
            'cache-control',
            hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    } else if (clientDir) {
      app.log.warn({ clientDir }, 'the browser app is not built; run `npm run build`');
    }

    app.setNotFoundHandler((request, reply) => {
      const isApi = isApiPath(request.url);
      const wantsPage = request.method === 'GET' || request.method === 'HEAD';
      if (!isApi && wantsPage && clientDir && indexHtml && existsSync(indexHtml)) {
        // A screen of the single-page app: a deep link works after a reload.
        return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
      }
      return reply.status(404).send(
        localErrorReply(request, 'not_found', 'No such path: {method} {url}', {
          method: request.method,
          url: request.url,
        }),
      );
    });
  },
  { name: 'routes', dependencies: ['writes'] },
);
