import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import type { Locale } from '../../../shared/locales.ts';
import { AppError } from '../../errors.ts';
import { requestLocale, translate } from '../../i18n.ts';
import { MailError, type Mailer } from '../../mail/mailer.ts';
import { createPasswordResetLink } from './accounts.commands.ts';
import { emailKey, findUserByEmail } from './accounts.queries.ts';
import { countResetRequest } from './throttle.ts';

/** The one answer, whoever the e-mail belongs to: it tells a stranger nothing. */
const forgotPasswordAnswer =
  'If an account uses this e-mail, a link to set a new password is on its way.';

export function passwordResetByEmail(config: { mail: unknown; publicUrl: string | null }): boolean {
  return config.mail !== null && config.publicUrl !== null;
}

export const forgotPasswordRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  const { mailer } = app;
  const { publicUrl } = app.config;
  // Mail still being prepared or sent when the server stops is finished first, not dropped.
  const inFlight = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...inFlight]);
  });

  // Answered before any lookup, alike for every e-mail: not even timing tells who has an account.
  handle(app, apiRoutes.forgotPassword, { security: [] }, async (request, reply) => {
    if (!mailer || publicUrl === null) {
      throw new AppError(
        503,
        'mail_not_configured',
        'Password reset by e-mail is not set up on this server; ask the administrator for a password reset link.',
      );
    }
    const { email } = request.body;
    const locale = requestLocale(request);
    await countResetRequest(db, request.ip, emailKey(email), Date.now());
    const work = sendResetLink({ db, mailer, publicUrl, email, locale, log: request.log })
      .catch((error: unknown) => {
        // Never the link: whoever reads the log must not be able to use it.
        request.log.error(
          error instanceof MailError
            ? { mail: { kind: error.kind, reply: error.reply } }
            : { err: error },
          'The password reset e-mail could not be sent',
        );
      })
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
    return reply.status(202).send({ message: translate(locale, forgotPasswordAnswer) });
  });
};

async function sendResetLink(options: {
  db: Parameters<typeof findUserByEmail>[0];
  mailer: Mailer;
  publicUrl: string;
  email: string;
  locale: Locale;
  log: FastifyBaseLogger;
}): Promise<void> {
  const { db, mailer, publicUrl, email, locale } = options;
  await new Promise((resolve) => setImmediate(resolve));
  const user = await findUserByEmail(db, email);
  // No account, or one the administrator has disabled: nothing is sent, and nothing is said.
  if (!user || user.disabled_at !== null) return;
  const link = await createPasswordResetLink(db, user.id, Date.now());
  await mailer.send({
    to: user.email,
    subject: translate(locale, 'Set a new password for Balance'),
    text: [
      translate(
        locale,
        'Someone, probably you, asked to set a new password for the Balance account of this e-mail.',
      ),
      '',
      translate(locale, 'Open this link within 24 hours to choose a new password. It works once:'),
      `${publicUrl}${link.path}`,
      '',
      translate(
        locale,
        'If you did not ask for it, ignore this e-mail: your password stays as it is.',
      ),
    ].join('\n'),
  });
  options.log.info({ userId: user.id }, 'Password reset e-mail sent');
}
