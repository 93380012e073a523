import { collectorsClients } from '../books/books.queries.ts';
import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import type { DueReminder } from '../../../shared/schemas/reminders.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../auth/session.ts';
import { checkedClientId, clientNotFound } from '../clients/current-client.ts';
import { clientsByIds, findClient } from '../clients/clients.queries.ts';
import { readBusiness, readLanguage } from '../settings/settings.queries.ts';
import { dueToday, upcoming, type ClientDue } from './due-reminders.ts';
import { languageFor, leadingStep, mailtoOf, renderReminder } from './reminder-mail.ts';
import { markSentByHand, saveReminderPlan, setClientReminders } from './reminders.commands.ts';
import { isClientPaused, listReminders, readPlan } from './reminders.queries.ts';
import { dayIn } from './schedule.ts';

const previewDays = 30;
const listLimit = 200;

const nameOf = (client: { firstName: string; lastName: string }) =>
  `${client.firstName} ${client.lastName}`.trim();

export const remindersRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);

  handle(app, apiRoutes.reminderPlan, async (request) => readPlan(db, currentBook(request).id));

  handle(app, apiRoutes.saveReminderPlan, async (request) => {
    const bookId = currentBook(request).id;
    await app.writes.run(saveReminderPlan, currentBook(request), request.body);
    return readPlan(db, bookId);
  });

  handle(app, apiRoutes.clientReminders, async (request) => {
    const bookId = currentBook(request).id;
    const clientId = checkedClientId(request.params.id);
    if (!(await findClient(db, bookId, clientId))) throw clientNotFound();
    return { enabled: !(await isClientPaused(db, bookId, clientId)) };
  });

  handle(app, apiRoutes.setClientReminders, async (request) => {
    const clientId = checkedClientId(request.params.id);
    await app.writes.run(setClientReminders, currentBook(request), clientId, request.body.enabled);
    return { enabled: request.body.enabled };
  });

  handle(app, apiRoutes.reminders, async (request) => {
    const bookId = currentBook(request).id;
    const rows = await listReminders(db, bookId, request.query.status, listLimit);
    const clients = await clientsByIds(db, bookId, [...new Set(rows.map((row) => row.client_id))]);
    const names = new Map(clients.map((client) => [client.id, nameOf(client)]));
    return {
      reminders: rows.map((row) => ({
        id: row.id,
        clientId: row.client_id,
        clientName: names.get(row.client_id) ?? '',
        entryId: row.entry_id,
        step: row.step,
        dueOn: row.due_on,
        status: row.status,
        sentTo: row.sent_to,
        attempts: row.attempts,
        nextAttemptAt:
          row.status === 'retrying' && row.next_attempt_at !== null
            ? new Date(row.next_attempt_at).toISOString()
            : null,
        lastError: row.last_error,
        updatedAt: new Date(row.updated_at).toISOString(),
      })),
    };
  });

  async function dueRemindersOf(bookId: string, onlyClientId?: string) {
    const plan = await readPlan(db, bookId);
    const today = dayIn(plan.timeZone, Date.now());
    const [due, language, business] = await Promise.all([
      dueToday(db, bookId, plan, today, onlyClientId),
      readLanguage(db, bookId),
      readBusiness(db, bookId),
    ]);
    const ready = (entry: ClientDue): DueReminder => {
      const charges = entry.send.map((step) => {
        const charge = entry.charges.find((open) => open.entryId === step.entryId)!;
        return { ...charge, step: step.step };
      });
      const mail = renderReminder({
        client: entry.client,
        locale: languageFor(entry.language, language),
        businessName: business.name,
        paymentDetails: business.paymentDetails,
        amountDue: entry.amountDue,
        charges,
        today,
        // A link is made only when it is sent (its secret is shown once): by hand, the owner
        // makes one on the client's page and pastes it.
        link: null,
      });
      return {
        clientId: entry.client.id,
        clientName: nameOf(entry.client),
        email: entry.email,
        currency: entry.client.currency,
        amountDue: entry.amountDue.toString(),
        charges,
        subject: mail.subject,
        text: mail.text,
        mailto: mailtoOf(entry.email, mail),
      };
    };
    return { today, due, ready };
  }

  handle(app, apiRoutes.remindersDueToday, async (request) => {
    const book = currentBook(request);
    const { today, due, ready } = await dueRemindersOf(book.id);
    const theirs =
      book.role === 'collector'
        ? new Set(await collectorsClients(db, book.id, book.actor.userId))
        : null;
    const shown = theirs ? due.filter((entry) => theirs.has(entry.client.id)) : due;
    return { mailConfigured: app.mailer !== null, today, reminders: shown.map(ready) };
  });

  // Worked through by hand without a mail server; with one, the sender may have it already.
  handle(app, apiRoutes.markReminderSent, async (request) => {
    const bookId = currentBook(request).id;
    const clientId = checkedClientId(request.params.id);
    if (!(await findClient(db, bookId, clientId))) throw clientNotFound();
    const { due } = await dueRemindersOf(bookId, clientId);
    const entry = due[0];
    const asked = request.body.charges;
    const missing = asked.filter(
      (charge) =>
        !entry?.send.some((step) => step.entryId === charge.entryId && step.step === charge.step),
    );
    if (!entry || missing.length > 0)
      throw new AppError(409, 'conflict', 'These charges have no reminder due today: {charges}', {
        values: {
          charges: missing.map((charge) => `${charge.entryId} ${charge.step}`).join(', '),
        },
      });
    const marked = (steps: typeof entry.send) =>
      steps
        .filter((step) => asked.some((charge) => charge.entryId === step.entryId))
        .map((step) => ({ clientId, entryId: step.entryId, step: step.step, dueOn: step.on }));
    const send = marked(entry.send);
    const count = await app.writes.run(markSentByHand, currentBook(request), {
      clientId,
      send,
      skip: marked(entry.skip),
      detail: {
        step: leadingStep(send),
        charges: send.map(({ entryId, step }) => ({
          entryId,
          step,
          reference: entry.charges.find((charge) => charge.entryId === entryId)?.reference ?? '',
        })),
        sentTo: entry.email,
        by: 'hand',
      },
    });
    return { marked: count };
  });

  handle(app, apiRoutes.reminderPreview, async (request) => {
    const bookId = currentBook(request).id;
    const plan = await readPlan(db, bookId);
    const today = dayIn(plan.timeZone, Date.now());
    const list = await upcoming(db, bookId, plan, today, previewDays);
    return {
      today,
      reminders: list.map(({ client, step, charge }) => ({
        on: step.on < today ? today : step.on,
        clientId: client.id,
        clientName: nameOf(client),
        entryId: step.entryId,
        step: step.step,
        remaining: charge.remaining,
        currency: client.currency,
      })),
    };
  });
};
