import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ReminderDetail, ReminderPlan } from '../../../shared/schemas/reminders.ts';
import type { Locale } from '../../../shared/locales.ts';
import { clientLinkPath } from '../../../shared/api-routes.ts';
import { defaultPeriod } from '../../../shared/schemas/statement.ts';
import { MailError, type MailAttachment, type Mailer } from '../../mail/mailer.ts';
import { hashToken } from '../auth/session.ts';
import { statementFileName } from '../statements/statement-files.ts';
import { readStatement } from '../statements/statement.ts';
import { findBookOwner } from '../books/books.queries.ts';
import { readBusiness, readLanguage } from '../settings/settings.queries.ts';
import { remindableClients, sendingPlan } from './due-reminders.ts';
import { languageFor, leadingStep, messageIdDomain, renderReminder } from './reminder-mail.ts';
import {
  claimReminders,
  retakeReminders,
  settleUnsent,
  type ClaimedMessage,
} from './reminder-claims.ts';
import { finishSend, type SendOutcome } from './reminders.commands.ts';
import { keepNextRun } from './reminders.repository.ts';
import { plansToLookAt, readPlan, staleMessages } from './reminders.queries.ts';
import { dayIn, retryDelaysMs, startOfDayIn } from './schedule.ts';

export interface ReminderSenderOptions {
  /** The clock the schedule and the leases run on; a test moves it through a month. */
  now?: () => number;
  /** Names this instance's claims. */
  instanceId?: string;
  /** How long a claim holds before another instance may send it again; the config's unless given. */
  leaseMs?: number;
  /** How often `schedule` runs the sender; the config's unless given. */
  runEveryMs?: number;
  /** The app's unless given (a test gives one that never answers: an instance killed mid-send). */
  mailer?: Mailer | null;
}

/**
 * Sends the reminders that are due, exactly once across instances as far as a mail server allows
 * (decision 029): claim (commit), send, mark sent (commit); an expired claim is sent again with
 * the same Message-ID.
 */
export class ReminderSender {
  readonly #app: FastifyInstance;
  readonly #now: () => number;
  readonly #instanceId: string;
  readonly #leaseMs: number;
  readonly #mailer: Mailer | null;
  readonly #domain: string;
  #running: Promise<void> | null = null;

  constructor(app: FastifyInstance, options: ReminderSenderOptions = {}) {
    this.#app = app;
    this.#now = options.now ?? Date.now;
    this.#instanceId = options.instanceId ?? randomUUID();
    this.#leaseMs = options.leaseMs ?? app.config.reminderLeaseMs;
    this.#mailer = options.mailer === undefined ? app.mailer : options.mailer;
    this.#domain = messageIdDomain(app.config.mail?.from);
  }

  /** One run at a time per instance: a slow mail server never piles runs up. */
  async runOnce(): Promise<void> {
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #run(): Promise<void> {
    if (!this.#mailer) return;
    const { kysely: db } = this.#app.db;
    // Only the owners whose next step has come, or whose data changed since the last look.
    for (const { bookId, plan, bookChanges } of await plansToLookAt(db, this.#now()))
      await this.#sendDue(bookId, plan, bookChanges).catch((error: unknown) =>
        this.#app.log.warn({ err: error, bookId }, 'reminders could not be claimed'),
      );
    for (const stale of await staleMessages(db, this.#now()))
      await this.#sendAgain(stale.bookId, stale.messageId).catch((error: unknown) =>
        this.#app.log.warn({ err: error, bookId: stale.bookId }, 'a reminder could not be retried'),
      );
  }

  async #sendDue(bookId: string, plan: ReminderPlan, bookChanges: number): Promise<void> {
    const today = dayIn(plan.timeZone, this.#now());
    const { due, nextDay } = await sendingPlan(this.#app.db.kysely, bookId, plan, today);
    const keepNextDay = () =>
      keepNextRun(this.#app.db.kysely, bookId, {
        at: nextDay === null ? null : startOfDayIn(plan.timeZone, nextDay),
        bookChanges,
      });
    if (due.length === 0) {
      await keepNextDay();
      return;
    }
    const steps = (kind: 'send' | 'skip') =>
      due.flatMap((entry) =>
        entry[kind].map((step) => ({
          clientId: entry.client.id,
          entryId: step.entryId,
          step: step.step,
          dueOn: step.on,
        })),
      );
    const now = this.#now();
    const messages = await claimReminders(this.#app.db.kysely, bookId, {
      instanceId: this.#instanceId,
      now,
      leaseUntil: now + this.#leaseMs,
      domain: this.#domain,
      send: steps('send'),
      skip: steps('skip'),
    });
    // Once today's steps are claimed (by this instance or another), the next day stands.
    await keepNextDay();
    // One client's e-mail that cannot be made must not hold back the others claimed with it.
    for (const message of messages)
      await this.#deliver(bookId, message).catch((error: unknown) =>
        this.#app.log.error({ err: error, bookId }, 'a reminder could not be delivered'),
      );
  }

  async #sendAgain(bookId: string, messageId: string): Promise<void> {
    const at = this.#now();
    const message = await retakeReminders(this.#app.db.kysely, bookId, {
      messageId,
      instanceId: this.#instanceId,
      at,
      leaseUntil: at + this.#leaseMs,
    });
    if (message) await this.#deliver(bookId, message);
  }

  /** What is sent is read afresh: a charge paid since the claim is left out, or the whole e-mail. */
  async #deliver(bookId: string, message: ClaimedMessage): Promise<void> {
    const { kysely: db } = this.#app.db;
    const ids = message.reminders.map((reminder) => reminder.id);
    const finish = (outcome: SendOutcome) =>
      this.#app.writes.run(finishSend, bookId, {
        clientId: message.clientId,
        ids,
        instanceId: this.#instanceId,
        outcome,
      });
    const settle = (outcome: Parameters<typeof settleUnsent>[1]['outcome']) =>
      settleUnsent(db, { ids, instanceId: this.#instanceId, now: this.#now(), outcome });
    const [plan, [entry], language, business, owner] = await Promise.all([
      readPlan(db, bookId),
      remindableClients(db, bookId, message.clientId),
      readLanguage(db, bookId),
      readBusiness(db, bookId),
      findBookOwner(db, bookId),
    ]);
    const charges = entry
      ? message.reminders.flatMap((reminder) => {
          const charge = entry.charges.find((open) => open.entryId === reminder.entryId);
          return charge ? [{ ...charge, step: reminder.step }] : [];
        })
      : [];
    // No owner able to sign in (all disabled): nothing is sent in the book's name.
    if (!plan.enabled || !entry || charges.length === 0 || !owner) {
      await settle({ kind: 'cancelled' });
      return;
    }
    const locale = languageFor(entry.language, language);
    // The e-mail carries a new link to the client's statement, made when the send is recorded;
    // the server keeps only its hash, so an earlier link cannot be sent again (decision 029).
    const { publicUrl } = this.#app.config;
    const linkSecret = publicUrl === null ? null : randomBytes(32).toString('base64url');
    const mail = renderReminder({
      client: entry.client,
      locale,
      businessName: business.name,
      paymentDetails: business.paymentDetails,
      amountDue: entry.amountDue,
      charges,
      today: dayIn(plan.timeZone, this.#now()),
      link: linkSecret === null ? null : `${publicUrl}${clientLinkPath(linkSecret)}`,
    });
    const detail: ReminderDetail = {
      step: leadingStep(charges),
      charges: charges.map(({ entryId, step, reference }) => ({ entryId, step, reference })),
      sentTo: entry.email,
      by: 'mail',
    };
    /** Counted as an attempt: tried again later, and reported once the retries have run out. */
    const tryLater = async (error: string) => {
      const attempts = Math.max(...message.reminders.map((reminder) => reminder.attempts)) + 1;
      const delay = retryDelaysMs[attempts - 1];
      if (delay === undefined)
        await finish({ kind: 'failed', error, attempts, detail: { ...detail, error } });
      else await settle({ kind: 'retry', error, attempts, nextAttemptAt: this.#now() + delay });
    };
    let attachments: MailAttachment[] | undefined;
    try {
      attachments = plan.attachPdf
        ? await this.#statementPdf(bookId, message.clientId, locale, plan)
        : undefined;
    } catch (error) {
      // Else the claim would stay "sending" and be taken again after every lease, for ever.
      this.#app.log.error({ err: error, bookId }, "a reminder's statement PDF could not be made");
      await tryLater('The statement PDF could not be made');
      return;
    }
    try {
      await this.#mailer!.send({
        to: entry.email,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: message.messageId,
        replyTo: owner?.email,
        attachments,
      });
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      this.#app.log.warn({ err: error, bookId }, 'a reminder could not be sent');
      await tryLater(error.message);
      return;
    }
    await finish({
      kind: 'sent',
      detail,
      linkSecretHash: linkSecret === null ? null : hashToken(linkSecret),
    });
  }

  /** The statement the client's link shows, as of today in the owner's time zone. */
  async #statementPdf(
    bookId: string,
    clientId: string,
    locale: Locale,
    plan: ReminderPlan,
  ): Promise<MailAttachment[] | undefined> {
    const period = defaultPeriod(dayIn(plan.timeZone, this.#now()));
    const statement = await readStatement(this.#app.db.kysely, bookId, clientId, period, true);
    if (!statement) return undefined;
    const pdf = await this.#app.statementPdfs.render(bookId, statement, locale);
    return [
      {
        filename: statementFileName(statement, 'pdf').exact,
        content: pdf,
        contentType: 'application/pdf',
      },
    ];
  }

  /** Every minute in every instance; the claims keep them from sending a step twice. */
  static schedule(app: FastifyInstance, options: ReminderSenderOptions = {}): ReminderSender {
    const sender = new ReminderSender(app, options);
    const tick = async () => {
      // Not before the database is migrated: the first run waits for it (`npm start`).
      if (app.db.health.starting !== null) return;
      await sender
        .runOnce()
        .catch((error: unknown) => app.log.warn({ err: error }, 'the reminders run failed'));
    };
    const timer = setInterval(() => void tick(), options.runEveryMs ?? app.config.reminderRunMs);
    timer.unref();
    app.addHook('onReady', async () => {
      void app.databaseReady.then(tick, () => {});
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
    });
    return sender;
  }
}
