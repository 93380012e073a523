import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { testDialect } from '../../../../tests/db.ts';
import { buildApp } from '../../app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { startSmtpServer } from '../../../../tests/smtp.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { HistoryEntry } from '../../../shared/schemas/events.ts';
import type {
  DueReminders,
  ReminderList,
  ReminderPlan,
  ReminderPreview,
} from '../../../shared/schemas/reminders.ts';
import type { Mailer, MailMessage } from '../../mail/mailer.ts';
import { ReminderSender } from './reminder-sender.ts';

const mailFrom = 'Balance <billing@example.com>';
const plan: ReminderPlan = {
  enabled: true,
  daysBefore: 3,
  onDueDate: true,
  overdueEveryDays: 7,
  overdueMax: 2,
  attachPdf: false,
  timeZone: 'UTC',
};
const dayMs = 86_400_000;
const at = (day: string) => Date.parse(`${day}T09:00:00Z`);

async function addClient(testApp: TestApp, cookie: string, extra: Partial<Client> = {}) {
  return (
    await injectOk(
      testApp.app,
      'POST',
      '/api/clients',
      cookie,
      buildClient({ balance: 0, ...extra }),
    )
  ).json<Client>();
}

async function charge(
  testApp: TestApp,
  cookie: string,
  clientId: string,
  amount: number,
  dueDate: string,
) {
  return (
    await injectOk(testApp.app, 'POST', `/api/clients/${clientId}/entries`, cookie, {
      kind: 'charge',
      amount,
      date: '2025-12-20',
      dueDate,
    })
  ).json<{ entry: { entryId: number } }>();
}

async function pay(
  testApp: TestApp,
  cookie: string,
  clientId: string,
  amount: number,
  date: string,
) {
  await injectOk(testApp.app, 'POST', `/api/clients/${clientId}/entries`, cookie, {
    kind: 'payment',
    amount,
    date,
  });
}

const history = async (testApp: TestApp, cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/history`, cookie)).json<{
    entries: HistoryEntry[];
  }>().entries;

describe('reminders sent on a schedule through a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let testApp: TestApp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    testApp = await buildTestApp({ config: { mail: { url: smtp.url, from: mailFrom } } });
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });
  // Each test's owner is paused after it, so a later test's sender sends only that test's mail.
  const owners: string[] = [];
  afterEach(async () => {
    for (const cookie of owners.splice(0))
      await injectOk(testApp.app, 'PUT', '/api/reminders/plan', cookie, {
        ...plan,
        enabled: false,
      });
  });

  it('sends each step once through a month, stops on payment in full, keeps on after a partial one', async () => {
    const owner = await joinAs(testApp.app);
    owners.push(owner.cookie);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    const paysInFull = await addClient(testApp, owner.cookie);
    const paysPart = await addClient(testApp, owner.cookie);
    const twoCharges = await addClient(testApp, owner.cookie);
    const optedOut = await addClient(testApp, owner.cookie);
    await charge(testApp, owner.cookie, paysInFull.id, 10_000, '2026-01-10');
    await charge(testApp, owner.cookie, paysPart.id, 20_000, '2026-01-15');
    await charge(testApp, owner.cookie, twoCharges.id, 3_000, '2026-01-20');
    await charge(testApp, owner.cookie, twoCharges.id, 4_000, '2026-01-20');
    await charge(testApp, owner.cookie, optedOut.id, 5_000, '2026-01-20');
    await injectOk(testApp.app, 'PUT', `/api/clients/${optedOut.id}/reminders`, owner.cookie, {
      enabled: false,
    });

    let now = at('2026-01-01');
    const sender = new ReminderSender(testApp.app, { now: () => now, instanceId: 'one' });
    const before = smtp.received.length;
    for (let day = 0; day < 45; day += 1) {
      now = at('2026-01-01') + day * dayMs;
      const today = new Date(now).toISOString().slice(0, 10);
      if (today === '2026-01-12') await pay(testApp, owner.cookie, paysInFull.id, 10_000, today);
      if (today === '2026-01-16') await pay(testApp, owner.cookie, paysPart.id, 5_000, today);
      await sender.runOnce();
      // A second run the same day finds nothing more to send.
      await sender.runOnce();
    }
    const mails = smtp.received.slice(before);
    const to = (client: Client) =>
      mails.filter((mail) => JSON.stringify(mail.to).includes(client.email));
    // before, due; then paid.
    expect(to(paysInFull).map((mail) => mail.subject)).toEqual([
      'Payment reminder: $100.00 due Jan 10, 2026',
      'Payment reminder: $100.00 due Jan 10, 2026',
    ]);
    // before, due, overdue-1, overdue-2: the rest is still owed after the payment.
    expect(to(paysPart).map((mail) => mail.subject)).toEqual([
      'Payment reminder: $200.00 due Jan 15, 2026',
      'Payment reminder: $200.00 due Jan 15, 2026',
      'Overdue payment: $150.00',
      'Overdue payment: $150.00',
    ]);
    // One e-mail per step naming both charges.
    expect(to(twoCharges)).toHaveLength(4);
    for (const mail of to(twoCharges)) expect(mail.text).toContain('$40.00 unpaid');
    expect(to(optedOut)).toHaveLength(0);
    expect(mails).toHaveLength(10);
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(10);
    const [first] = to(paysPart);
    expect(first?.html).toContain('Amount due: $200.00');
    expect(first?.replyTo?.value[0]?.address).toBe(owner.email);

    const sent = (await history(testApp, owner.cookie, paysInFull.id)).filter(
      (entry) => entry.action === 'reminder_sent',
    );
    expect(sent.map((entry) => entry.reminder?.step)).toEqual(['due', 'before']);
    expect(sent[0]?.reminder).toMatchObject({ sentTo: paysInFull.email, by: 'mail' });
    const list = (
      await injectOk(testApp.app, 'GET', '/api/reminders?status=sent', owner.cookie)
    ).json<ReminderList>();
    expect(list.reminders).toHaveLength(14);
  });

  it('sends nothing while the owner has paused all reminders, then only the latest step', async () => {
    const owner = await joinAs(testApp.app);
    owners.push(owner.cookie);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, {
      ...plan,
      enabled: false,
    });
    const client = await addClient(testApp, owner.cookie);
    await charge(testApp, owner.cookie, client.id, 10_000, '2026-02-10');
    let now = at('2026-02-01');
    const sender = new ReminderSender(testApp.app, { now: () => now });
    const before = smtp.received.length;
    for (let day = 0; day < 20; day += 1) {
      now = at('2026-02-01') + day * dayMs;
      await sender.runOnce();
    }
    expect(smtp.received.length).toBe(before);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    await sender.runOnce();
    const mails = smtp.received.slice(before);
    expect(mails.map((mail) => mail.subject)).toEqual(['Overdue payment: $100.00']);
    const all = (
      await injectOk(testApp.app, 'GET', '/api/reminders?status=skipped', owner.cookie)
    ).json<ReminderList>();
    expect(all.reminders.map((reminder) => reminder.step).sort()).toEqual(['before', 'due']);
  });

  it('lets no client field write a header', async () => {
    const owner = await joinAs(testApp.app);
    owners.push(owner.cookie);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    const named = await addClient(testApp, owner.cookie);
    const smuggled = await addClient(testApp, owner.cookie);
    await charge(testApp, owner.cookie, named.id, 1_000, '2026-03-10');
    await charge(testApp, owner.cookie, smuggled.id, 1_000, '2026-03-10');
    // Older data, or a row written by other means: the API itself refuses these.
    await sql`update clients set first_name = ${'Eve\r\nBcc: attacker@evil.example\r\nSubject: pwned'} where id = ${named.id}`.execute(
      testApp.app.db.kysely,
    );
    await sql`update clients set email = ${'victim@example.com\r\nBcc: attacker@evil.example'} where id = ${smuggled.id}`.execute(
      testApp.app.db.kysely,
    );
    const before = smtp.received.length;
    await new ReminderSender(testApp.app, { now: () => at('2026-03-10') }).runOnce();
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail?.to).toMatchObject({ value: [{ address: named.email }] });
    expect(mail?.bcc).toBeUndefined();
    expect(mail?.subject).toBe('Payment reminder: $10.00 due Mar 10, 2026');
    expect([...(mail?.headers.keys() ?? [])]).not.toContain('bcc');
    expect(mail?.text).toContain('Dear Eve Bcc: attacker@evil.example Subject: pwned');
  });

  it('retries a refused e-mail after 5 minutes, 30 minutes and 2 hours, then reports it failed', async () => {
    const refusing = await startSmtpServer({ refuse: { code: 550, text: 'mailbox unavailable' } });
    const refusedApp = await buildTestApp({
      config: { mail: { url: refusing.url, from: mailFrom } },
    });
    try {
      const owner = await joinAs(refusedApp.app);
      await injectOk(refusedApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
      const client = await addClient(refusedApp, owner.cookie);
      await charge(refusedApp, owner.cookie, client.id, 1_000, '2026-03-10');
      let now = at('2026-03-10');
      const sender = new ReminderSender(refusedApp.app, { now: () => now });
      const statuses: string[] = [];
      const status = async () => {
        const list = (
          await injectOk(refusedApp.app, 'GET', '/api/reminders', owner.cookie)
        ).json<ReminderList>();
        statuses.push(`${list.reminders[0]?.status} ${list.reminders[0]?.attempts}`);
      };
      await sender.runOnce();
      await status();
      now += 4 * 60_000;
      await sender.runOnce();
      await status();
      for (const wait of [5, 30, 120]) {
        now += wait * 60_000;
        await sender.runOnce();
        await status();
      }
      expect(statuses).toEqual([
        'retrying 1',
        'retrying 1',
        'retrying 2',
        'retrying 3',
        'failed 4',
      ]);
      const failed = (
        await injectOk(refusedApp.app, 'GET', '/api/reminders?status=failed', owner.cookie)
      ).json<ReminderList>();
      expect(failed.reminders[0]?.lastError).toContain('mailbox unavailable');
      const events = await history(refusedApp, owner.cookie, client.id);
      expect(events.find((entry) => entry.action === 'reminder_failed')?.reminder).toMatchObject({
        step: 'due',
        sentTo: client.email,
      });
    } finally {
      await refusedApp.close();
      await refusing.close();
    }
  });

  it('retries, then reports failed, a reminder whose PDF could not be made, holding back no other client’s', async () => {
    const broken = await buildTestApp({ config: { mail: { url: smtp.url, from: mailFrom } } });
    try {
      const owner = await joinAs(broken.app);
      await injectOk(broken.app, 'PUT', '/api/reminders/plan', owner.cookie, {
        ...plan,
        attachPdf: true,
      });
      const first = await addClient(broken, owner.cookie);
      const second = await addClient(broken, owner.cookie);
      await charge(broken, owner.cookie, first.id, 1_000, '2026-03-10');
      await charge(broken, owner.cookie, second.id, 2_000, '2026-03-10');
      // A renderer that refuses every statement: what a crashed PDF worker answers.
      await broken.app.statementPdfs.close();
      let now = at('2026-03-10');
      const sender = new ReminderSender(broken.app, { now: () => now });
      const statuses: string[] = [];
      const status = async () => {
        const list = (
          await injectOk(broken.app, 'GET', '/api/reminders', owner.cookie)
        ).json<ReminderList>();
        statuses.push(
          list.reminders
            .map((reminder) => `${reminder.status} ${reminder.attempts}`)
            .sort()
            .join(', '),
        );
      };
      await sender.runOnce();
      await status();
      for (const wait of [5, 30, 120]) {
        now += wait * 60_000;
        await sender.runOnce();
        await status();
      }
      expect(statuses).toEqual([
        'retrying 1, retrying 1',
        'retrying 2, retrying 2',
        'retrying 3, retrying 3',
        'failed 4, failed 4',
      ]);
      const failed = (
        await injectOk(broken.app, 'GET', '/api/reminders?status=failed', owner.cookie)
      ).json<ReminderList>();
      expect(failed.reminders[0]?.lastError).toBe('The statement PDF could not be made');
      const events = await history(broken, owner.cookie, second.id);
      expect(events.find((entry) => entry.action === 'reminder_failed')?.reminder).toMatchObject({
        step: 'due',
        sentTo: second.email,
      });
    } finally {
      await broken.close();
    }
  });

  it('sends nothing for an owner whose account was disabled', async () => {
    const owner = await joinAs(testApp.app);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    const client = await addClient(testApp, owner.cookie);
    await charge(testApp, owner.cookie, client.id, 1_000, '2026-06-10');
    const disable = (at: number | null) =>
      sql`update users set disabled_at = ${at} where id = ${owner.userId}`.execute(
        testApp.app.db.kysely,
      );
    await disable(Date.now());
    const before = smtp.received.length;
    await new ReminderSender(testApp.app, { now: () => at('2026-06-10') }).runOnce();
    // Enabled again only so that the plan can be turned off after the test.
    await disable(null);
    owners.push(owner.cookie);
    expect(smtp.received.slice(before)).toHaveLength(0);
    const rows = await testApp.app.db.kysely
      .selectFrom('reminders')
      .select('status')
      .where('client_id', '=', client.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('sends again with the same Message-ID what an instance killed mid-send had claimed', async () => {
    const owner = await joinAs(testApp.app);
    owners.push(owner.cookie);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    const client = await addClient(testApp, owner.cookie);
    await charge(testApp, owner.cookie, client.id, 1_000, '2026-04-10');
    let now = at('2026-04-10');
    const handedOver: MailMessage[] = [];
    let accepted!: () => void;
    const reachedMailServer = new Promise<void>((resolve) => (accepted = resolve));
    const hanging: Mailer = {
      send: (message) => {
        handedOver.push(message);
        accepted();
        return new Promise<void>(() => {});
      },
      close: () => {},
    };
    const killed = new ReminderSender(testApp.app, {
      now: () => now,
      mailer: hanging,
      instanceId: 'killed',
      leaseMs: 60_000,
    });
    void killed.runOnce();
    await reachedMailServer;
    const survivor = new ReminderSender(testApp.app, {
      now: () => now,
      instanceId: 'survivor',
      leaseMs: 60_000,
    });
    const before = smtp.received.length;
    await survivor.runOnce();
    // Still held by the killed instance's lease.
    expect(smtp.received.length).toBe(before);
    now += 61_000;
    await survivor.runOnce();
    await survivor.runOnce();
    const mails = smtp.received.slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.messageId).toBe(handedOver[0]?.messageId);
    const sent = (
      await injectOk(testApp.app, 'GET', '/api/reminders?status=sent', owner.cookie)
    ).json<ReminderList>();
    expect(sent.reminders).toHaveLength(1);
  });

  it("writes in the client's language, carries a new link to the statement and attaches its PDF", async () => {
    const linked = await buildTestApp({
      config: { mail: { url: smtp.url, from: mailFrom }, publicUrl: 'https://balance.example' },
    });
    try {
      const owner = await joinAs(linked.app);
      await injectOk(linked.app, 'PUT', '/api/reminders/plan', owner.cookie, {
        ...plan,
        attachPdf: true,
      });
      const client = await addClient(linked, owner.cookie, { currency: 'KRW' });
      await charge(linked, owner.cookie, client.id, 250_000, '2026-05-10');
      await injectOk(linked.app, 'PUT', `/api/clients/${client.id}/language`, owner.cookie, {
        language: 'ko',
      });
      const handMade = (
        await injectOk(linked.app, 'POST', `/api/clients/${client.id}/link`, owner.cookie, {
          expiresInDays: 30,
        })
      ).json<{ path: string }>().path;

      const before = smtp.received.length;
      await new ReminderSender(linked.app, { now: () => at('2026-05-10') }).runOnce();
      const [mail, ...more] = smtp.received.slice(before);
      expect(more).toHaveLength(0);
      expect(mail?.subject).toBe('납부 안내: 2026. 5. 10.까지 ₩250,000');
      const address = /https:\/\/balance\.example(\/c\/[\w-]{43})/.exec(mail?.text ?? '');
      expect(address).not.toBeNull();
      expect(mail?.html).toContain(address?.[0]);
      expect(mail?.attachments.map((file) => [file.contentType, file.filename])).toEqual([
        ['application/pdf', expect.stringMatching(/^statement-.*\.pdf$/)],
      ]);
      expect(mail?.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
      // The e-mail's link opens the statement; the one made by hand before it has ended.
      const opened = await linked.app.inject({ method: 'GET', url: address?.[1] ?? '' });
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toContain('₩250,000');
      expect((await linked.app.inject({ method: 'GET', url: handMade })).statusCode).toBe(410);
    } finally {
      await linked.close();
    }
  });

  it("reads an owner's charges only once a step has come or the owner's data changed", async () => {
    const owner = await joinAs(testApp.app);
    owners.push(owner.cookie);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, {
      ...plan,
      timeZone: 'Asia/Seoul',
    });
    const client = await addClient(testApp, owner.cookie);
    const { entry } = await charge(testApp, owner.cookie, client.id, 1_000, '2026-07-20');
    const nextRun = async () => {
      const row = await testApp.app.db.kysely
        .selectFrom('reminder_plans')
        .select('next_run_at')
        .where('book_id', '=', owner.userId)
        .executeTakeFirstOrThrow();
      return row.next_run_at === null || row.next_run_at === 0
        ? row.next_run_at
        : new Date(row.next_run_at).toISOString();
    };
    const fifth = Date.parse('2026-07-05T00:00:00Z');
    const sender = new ReminderSender(testApp.app, { now: () => fifth });
    const before = smtp.received.length;
    // A change brings the sender at its next run; it works out the next step's day.
    expect(await nextRun()).toBe(0);
    await sender.runOnce();
    // "before" on 07-17 in Seoul, which begins at 15:00 UTC the day before.
    expect(await nextRun()).toBe('2026-07-16T15:00:00.000Z');

    // Moved behind the write path's back, the charge is not read again before that day...
    await sql`update entries set due_on = ${'2026-07-05'} where id = ${entry.entryId}`.execute(
      testApp.app.db.kysely,
    );
    await sender.runOnce();
    expect(smtp.received.length).toBe(before);
    // ...but any change through it has the sender read the owner's charges at once.
    const { entry: second } = await charge(testApp, owner.cookie, client.id, 2_000, '2026-09-01');
    expect(await nextRun()).toBe(0);
    await sender.runOnce();
    expect(smtp.received.slice(before).map((mail) => mail.subject)).toEqual([
      'Payment reminder: $30.00 due Jul 5, 2026',
    ]);
    // The e-mail tells all that is owed. The first charge's next step is overdue-1 on 07-12;
    // the second's "before" is 08-29.
    expect(await nextRun()).toBe('2026-07-11T15:00:00.000Z');

    const changes: [string, () => Promise<unknown>][] = [
      [
        'a void',
        () =>
          injectOk(
            testApp.app,
            'POST',
            `/api/clients/${client.id}/entries/${second.entryId}/void`,
            owner.cookie,
            { reason: 'Wrong client' },
          ),
      ],
      [
        "the client's reminders switched off",
        () =>
          injectOk(testApp.app, 'PUT', `/api/clients/${client.id}/reminders`, owner.cookie, {
            enabled: false,
          }),
      ],
      [
        "the client's reminders switched on",
        () =>
          injectOk(testApp.app, 'PUT', `/api/clients/${client.id}/reminders`, owner.cookie, {
            enabled: true,
          }),
      ],
      [
        'the plan',
        () =>
          injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, {
            ...plan,
            timeZone: 'UTC',
          }),
      ],
      ['a payment', () => pay(testApp, owner.cookie, client.id, 100, '2026-07-05')],
      [
        "the client's address",
        async () => {
          const now = (
            await injectOk(testApp.app, 'GET', `/api/clients/${client.id}`, owner.cookie)
          ).json<Client>();
          await injectOk(testApp.app, 'PUT', `/api/clients/${client.id}`, owner.cookie, {
            ...buildClient({
              balance: now.balance,
              currency: now.currency,
              email: `moved.${now.email}`,
            }),
            version: now.version,
          });
        },
      ],
    ];
    const seen: [string, unknown][] = [];
    for (const [name, change] of changes) {
      await change();
      seen.push([name, await nextRun()]);
      await sender.runOnce();
    }
    expect(seen).toEqual(changes.map(([name]) => [name, 0]));
    // Switched off, the only client has nothing to send: nothing is read until a change.
    await injectOk(testApp.app, 'PUT', `/api/clients/${client.id}/reminders`, owner.cookie, {
      enabled: false,
    });
    await sender.runOnce();
    expect(await nextRun()).toBeNull();
    expect(smtp.received.slice(before)).toHaveLength(1);
  });

  it('previews the next 30 days and refuses a time zone that does not exist', async () => {
    const owner = await joinAs(testApp.app);
    owners.push(owner.cookie);
    const refused = await testApp.app.inject({
      method: 'PUT',
      url: '/api/reminders/plan',
      headers: { cookie: owner.cookie },
      payload: { ...plan, timeZone: 'Mars/Olympus' },
    });
    expect(refused.statusCode).toBe(400);
    expect(
      refused.json<{ error: { fields: Record<string, string> } }>().error.fields,
    ).toHaveProperty('timeZone');
    const off = (
      await injectOk(testApp.app, 'GET', '/api/reminders/plan', owner.cookie)
    ).json<ReminderPlan>();
    expect(off.enabled).toBe(false);

    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    const client = await addClient(testApp, owner.cookie);
    const today = new Date().toISOString().slice(0, 10);
    const due = new Date(Date.now() + 10 * dayMs).toISOString().slice(0, 10);
    await injectOk(testApp.app, 'POST', `/api/clients/${client.id}/entries`, owner.cookie, {
      kind: 'charge',
      amount: 2_500,
      date: today,
      dueDate: due,
    });
    const preview = (
      await injectOk(testApp.app, 'GET', '/api/reminders/preview', owner.cookie)
    ).json<ReminderPreview>();
    expect(preview.reminders.map((item) => item.step)).toEqual([
      'before',
      'due',
      'overdue-1',
      'overdue-2',
    ]);
    expect(preview.reminders[1]).toMatchObject({ on: due, clientId: client.id, remaining: 2_500 });
  });
});

describe('reminders without a mail server', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('lists today’s reminders with their text and marks one as sent by hand', async () => {
    const owner = await joinAs(testApp.app);
    await injectOk(testApp.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
    const client = await addClient(testApp, owner.cookie);
    const { entry } = await charge(testApp, owner.cookie, client.id, 12_345, '2026-01-10');
    const list = (
      await injectOk(testApp.app, 'GET', '/api/reminders/due-today', owner.cookie)
    ).json<DueReminders>();
    expect(list.mailConfigured).toBe(false);
    expect(list.reminders).toHaveLength(1);
    const [due] = list.reminders;
    expect(due).toMatchObject({
      clientId: client.id,
      email: client.email,
      amountDue: '12345',
      charges: [{ entryId: entry.entryId, step: 'overdue-2', remaining: 12_345 }],
      subject: 'Overdue payment: $123.45',
    });
    expect(due?.mailto.startsWith(`mailto:${encodeURIComponent(client.email)}?subject=`)).toBe(
      true,
    );

    const stale = await testApp.app.inject({
      method: 'POST',
      url: `/api/reminders/due-today/${client.id}/sent`,
      headers: { cookie: owner.cookie },
      payload: { charges: [{ entryId: entry.entryId, step: 'due' }] },
    });
    expect(stale.statusCode).toBe(409);
    const marked = await injectOk(
      testApp.app,
      'POST',
      `/api/reminders/due-today/${client.id}/sent`,
      owner.cookie,
      {
        charges: [{ entryId: entry.entryId, step: 'overdue-2' }],
      },
    );
    expect(marked.json()).toEqual({ marked: 1 });
    const after = (
      await injectOk(testApp.app, 'GET', '/api/reminders/due-today', owner.cookie)
    ).json<DueReminders>();
    expect(after.reminders).toEqual([]);
    const events = await history(testApp, owner.cookie, client.id);
    expect(events[0]).toMatchObject({
      action: 'reminder_sent',
      reminder: { by: 'hand', step: 'overdue-2', sentTo: client.email },
    });
  });
});

describe.skipIf(testDialect !== 'postgres')(
  'two instances on one PostgreSQL database (PostgreSQL only)',
  () => {
    it('sends each due reminder exactly once when both run the sender at the same time', async () => {
      const smtp = await startSmtpServer();
      const first = await buildTestApp({ config: { mail: { url: smtp.url, from: mailFrom } } });
      const second = await buildApp({ config: first.app.config });
      try {
        const owner = await joinAs(first.app);
        await injectOk(first.app, 'PUT', '/api/reminders/plan', owner.cookie, plan);
        const clients: Client[] = [];
        for (let index = 0; index < 6; index += 1) {
          const client = await addClient(first, owner.cookie);
          await charge(first, owner.cookie, client.id, 1_000 + index, '2026-05-10');
          await charge(first, owner.cookie, client.id, 500, '2026-05-03');
          clients.push(client);
        }
        let now = at('2026-05-07');
        const senders = [first.app, second].flatMap((app, index) =>
          [0, 1].map(
            (copy) => new ReminderSender(app, { now: () => now, instanceId: `i${index}.${copy}` }),
          ),
        );
        for (const day of ['2026-05-07', '2026-05-10', '2026-05-17']) {
          now = at(day);
          await Promise.all(senders.map((sender) => sender.runOnce()));
        }
        // 05-07: "before" of the one and the second's overdue-1 is not yet (05-10): one e-mail each;
        // 05-10: "due" of the one, overdue-1 of the other, in one e-mail; 05-17: overdue-1 and -2.
        expect(smtp.received).toHaveLength(clients.length * 3);
        expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(clients.length * 3);
        for (const client of clients)
          expect(
            smtp.received.filter((mail) => JSON.stringify(mail.to).includes(client.email)),
          ).toHaveLength(3);
      } finally {
        await second.close();
        await first.close();
        await smtp.close();
      }
    });
  },
);
