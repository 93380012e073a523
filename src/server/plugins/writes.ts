import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { WritePath } from '../modules/events/write-path.ts';
import { ReminderSender } from '../modules/reminders/reminder-sender.ts';
import { PdfRenderer } from '../modules/statements/statement-pdf-renderer.ts';
import { afterEveryChange, writeCommands, type WriteCommand } from '../write-commands.ts';

declare module 'fastify' {
  interface FastifyInstance {
    writes: WritePath<WriteCommand>;
    mailer: Mailer | null;
    /** One pool of PDF threads for every statement: the owner's, the client link's, a reminder's. */
    statementPdfs: PdfRenderer;
  }
}

export interface WritesOptions {
  config: Config;
  /** Send due reminders every minute (`npm start`); tests run their own sender when they need one. */
  sendReminders?: boolean | undefined;
}

/**
 * The one write path for an owner's changes, published on the live feed after commit, and what
 * the changes send out: e-mail, statement PDFs, the reminders due.
 */
export const writes = fp<WritesOptions>(
  async (app: FastifyInstance, { config, sendReminders }) => {
    const mailer = await createMailer(config.mail);
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => {
      mailer?.close();
    });

    const statementPdfs = new PdfRenderer();
    app.decorate('statementPdfs', statementPdfs);
    app.addHook('onClose', async () => {
      await statementPdfs.close();
    });

    app.decorate(
      'writes',
      new WritePath<WriteCommand>(app.db, app.feed, writeCommands, afterEveryChange),
    );
    if (sendReminders) ReminderSender.schedule(app);
  },
  { name: 'writes', dependencies: ['database'] },
);
