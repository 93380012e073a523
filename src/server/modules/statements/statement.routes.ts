import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import type { FastifyRequest } from 'fastify';
import { utcDay } from '../../../shared/dates.ts';
import {
  resolvePeriod,
  type Statement,
  type StatementQuery,
} from '../../../shared/schemas/statement.ts';
import { AppError } from '../../errors.ts';
import { requestLocale } from '../../i18n.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { MailError } from '../../mail/mailer.ts';
import { checkedClientId as clientId, clientNotFound } from '../clients/current-client.ts';
import { recordStatementSent } from './statement.commands.ts';
import { attachmentHeader, statementCsv, statementFileName } from './statement-files.ts';
import { readStatement } from './statement.ts';

export const statementRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);
  const pdfs = app.statementPdfs;

  async function statementFor(
    request: FastifyRequest,
    id: string,
    query: StatementQuery,
  ): Promise<Statement> {
    const resolved = resolvePeriod(query, utcDay());
    if (!resolved.ok) {
      const names = Object.keys(resolved.fields).join(', ');
      throw new AppError(400, 'validation', 'Invalid {names}', {
        values: { names },
        fields: resolved.fields,
      });
    }
    const statement = await readStatement(
      db,
      currentBook(request).id,
      clientId(id),
      resolved.period,
      app.mailer !== null,
    );
    if (!statement) throw clientNotFound();
    return statement;
  }

  handle(app, apiRoutes.statement, async (request) =>
    statementFor(request, request.params.id, request.query),
  );
  handle(app, apiRoutes.statementCsv, async (request, reply) => {
    const statement = await statementFor(request, request.params.id, request.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', attachmentHeader(statementFileName(statement, 'csv')))
      .send(statementCsv(statement, request.query.lang ?? requestLocale(request)));
  });

  handle(app, apiRoutes.statementPdf, async (request, reply) => {
    const statement = await statementFor(request, request.params.id, request.query);
    const pdf = await pdfs.render(
      currentBook(request).id,
      statement,
      request.query.lang ?? requestLocale(request),
    );
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachmentHeader(statementFileName(statement, 'pdf')))
      .send(pdf);
  });
  // Recorded in the history only once the mail server has accepted it.
  handle(app, apiRoutes.sendStatement, async (request) => {
    const { from, to, subject, message } = request.body;
    const statement = await statementFor(request, request.params.id, { from, to });
    const sentTo = statement.client.email;
    if (!sentTo)
      throw new AppError(
        409,
        'conflict',
        'This client has no e-mail address; add one to send the statement',
      );
    const { mailer } = app;
    if (!mailer)
      throw new AppError(
        503,
        'mail_not_configured',
        'This server cannot send e-mail: no mail server is set up (SMTP_URL)',
      );
    const pdf = await pdfs.render(currentBook(request).id, statement, requestLocale(request));
    try {
      await mailer.send({
        to: sentTo,
        subject,
        text: message,
        replyTo: currentUser(request).email,
        attachments: [
          {
            filename: statementFileName(statement, 'pdf').exact,
            content: pdf,
            contentType: 'application/pdf',
          },
        ],
      });
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      request.log.warn({ err: error }, 'a statement could not be sent');
      // Said in the owner's language; the mail server's own reply is quoted as it came.
      if (error.kind === 'unreachable')
        throw new AppError(
          502,
          'mail_failed',
          'The mail server could not be reached; try again later or check SMTP_URL',
        );
      throw new AppError(
        502,
        'mail_failed',
        error.reply
          ? 'The mail server refused the message: {reply}'
          : 'The mail server refused the message',
        { values: { reply: error.reply ?? '' } },
      );
    }
    await recordStatementSent(app.writes, currentBook(request), statement.client.id, sentTo);
    return { sentTo };
  });
};
