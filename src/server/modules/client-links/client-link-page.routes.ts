import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { clientLinkPath, pageRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { utcDay } from '../../../shared/dates.ts';
import type { Locale } from '../../../shared/locales.ts';
import { defaultPeriod } from '../../../shared/schemas/statement.ts';
import { AppError } from '../../errors.ts';
import { requestLocale } from '../../i18n.ts';
import { checkLinkGuesses, countLinkGuess } from '../auth/throttle.ts';
import { hashToken } from '../auth/session.ts';
import { readClientLanguage } from '../clients/clients.queries.ts';
import { readBusiness, readLanguage } from '../settings/settings.queries.ts';
import {
  attachmentHeader,
  statementCsv,
  statementFileName,
} from '../statements/statement-files.ts';
import { readStatement } from '../statements/statement.ts';
import { linkState } from './client-link.ts';
import { clientLinkPageCsp, plainLinkPage, statementLinkPage } from './client-link-page.ts';
import { recordLinkOpened } from './client-links.commands.ts';
import { findLinkBySecretHash } from './client-links.queries.ts';
import type { ClientLinkRow } from './client-links.queries.ts';
import { noteLinkOpened } from './link-use.ts';

const secretShape = /^[\w-]{43}$/;

type Params = { secret: string };

/**
 * The client's side: `/c/:secret` and its two files, for anyone holding the link and nobody else.
 * No cookie is read or set, the page is kept out of search engines and out of Referer headers,
 * and a guesser's misses are counted per address like failed logins.
 */
export const clientLinkPageRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  const pdfs = app.statementPdfs;
  app.addHook('onRequest', async (_request, reply) => {
    void reply.headers({
      'content-security-policy': clientLinkPageCsp,
      'referrer-policy': 'no-referrer',
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'no-store',
    });
  });

  const plain = (
    reply: FastifyReply,
    status: number,
    locale: Locale,
    reason: Parameters<typeof plainLinkPage>[1],
    business = '',
  ) =>
    reply
      .status(status)
      .type('text/html; charset=utf-8')
      .send(plainLinkPage(locale, reason, business));

  /** False once the address has guessed too often and its refusal was sent. */
  async function withinGuessLimit(
    request: FastifyRequest,
    reply: FastifyReply,
    now: number,
  ): Promise<boolean> {
    try {
      await checkLinkGuesses(db, request.ip, now);
      return true;
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 429) throw error;
      if (error.headers) void reply.headers(error.headers);
      await plain(reply, 429, requestLocale(request), 'rate_limited');
      return false;
    }
  }

  async function miss(request: FastifyRequest, reply: FastifyReply, now: number) {
    await countLinkGuess(db, request.ip, now);
    await plain(reply, 404, requestLocale(request), 'unknown');
  }

  /** The live link the address holds, or null once the answer (a plain page) was sent. */
  async function openLink(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
  ): Promise<ClientLinkRow | null> {
    const now = Date.now();
    if (!(await withinGuessLimit(request, reply, now))) return null;
    const { secret } = request.params;
    const link = secretShape.test(secret)
      ? await findLinkBySecretHash(db, hashToken(secret))
      : undefined;
    if (!link) {
      await miss(request, reply, now);
      return null;
    }
    if (linkState(link, now) !== 'live') {
      const [business, locale] = await Promise.all([
        readBusiness(db, link.book_id),
        languageOf(request, link),
      ]);
      await plain(reply, 410, locale, 'ended', business.name);
      return null;
    }
    return link;
  }

  async function languageOf(request: FastifyRequest, link: ClientLinkRow): Promise<Locale> {
    const [own, owners] = await Promise.all([
      readClientLanguage(db, link.book_id, link.client_id),
      readLanguage(db, link.book_id),
    ]);
    return own ?? owners ?? requestLocale(request);
  }

  async function statementOf(link: ClientLinkRow) {
    return readStatement(db, link.book_id, link.client_id, defaultPeriod(utcDay()), false);
  }

  const hidden = { hide: true };

  handle(app, pageRoutes.clientLinkPage, hidden, async (request, reply) => {
    const link = await openLink(request, reply);
    if (!link) return reply;
    const [statement, locale] = await Promise.all([statementOf(link), languageOf(request, link)]);
    if (!statement) return plain(reply, 404, requestLocale(request), 'unknown');
    const now = Date.now();
    try {
      await noteLinkOpened(db, link.id, now);
      await app.writes.run(recordLinkOpened, link.book_id, link.id, link.client_id);
    } catch (error) {
      // The page is the client's; a history line that could not be written is the log's business.
      request.log.warn({ err: error }, 'a client link was opened but could not be recorded');
    }
    const base = clientLinkPath(request.params.secret);
    return reply.type('text/html; charset=utf-8').send(
      statementLinkPage(statement, locale, {
        pdf: `${base}/statement.pdf`,
        csv: `${base}/statement.csv`,
      }),
    );
  });

  handle(app, pageRoutes.clientLinkPdf, hidden, async (request, reply) => {
    const link = await openLink(request, reply);
    if (!link) return reply;
    const [statement, locale] = await Promise.all([statementOf(link), languageOf(request, link)]);
    if (!statement) return plain(reply, 404, requestLocale(request), 'unknown');
    const pdf = await pdfs.render(link.book_id, statement, locale);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachmentHeader(statementFileName(statement, 'pdf')))
      .send(pdf);
  });

  // Any other address under /c/ is a miss like an unknown secret, with this page's headers, not
  // the app's 404 (which names the address it was asked for) or the browser app's page.
  const unknownAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    const now = Date.now();
    if (await withinGuessLimit(request, reply, now)) await miss(request, reply, now);
    return reply;
  };
  handle(app, pageRoutes.clientLinkRoot, hidden, unknownAddress);
  handle(app, pageRoutes.clientLinkOther, hidden, unknownAddress);

  handle(app, pageRoutes.clientLinkCsv, hidden, async (request, reply) => {
    const link = await openLink(request, reply);
    if (!link) return reply;
    const [statement, locale] = await Promise.all([statementOf(link), languageOf(request, link)]);
    if (!statement) return plain(reply, 404, requestLocale(request), 'unknown');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachmentHeader(statementFileName(statement, 'csv')))
      .send(statementCsv(statement, locale));
  });
};
