import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { pdfText } from '../../../../tests/pdf-text.ts';
import { startSmtpServer, unusedPort } from '../../../../tests/smtp.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { HistoryEntry } from '../../../shared/schemas/events.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';

const mailFrom = 'Balance <billing@example.com>';

/** An app whose mail goes to `url`, an owner and a client who owes ₩1,250,000, overdue. */
async function setUp(mailUrl: string | null) {
  const testApp = await buildTestApp({
    config: { mail: mailUrl ? { url: mailUrl, from: mailFrom } : null },
  });
  const owner = await joinAs(testApp.app);
  const client = (
    await injectOk(
      testApp.app,
      'POST',
      '/api/clients',
      owner.cookie,
      buildClient({ firstName: '서연', lastName: 'Müller', currency: 'KRW', balance: 0 }),
    )
  ).json<Client>();
  await injectOk(testApp.app, 'POST', `/api/clients/${client.id}/entries`, owner.cookie, {
    kind: 'charge',
    amount: 1_250_000,
    date: '2025-05-02',
  });
  return { testApp, owner, client };
}

const body = {
  from: '2025-05-01',
  to: '2025-06-30',
  subject: 'Your statement, May to June',
  message: 'Dear 서연,\n\n₩1,250,000 is overdue.\n\nKind regards',
};

const history = async (testApp: TestApp, cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/history`, cookie)).json<{
    entries: HistoryEntry[];
  }>().entries;

describe('sending a statement through a real SMTP server', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let setup: Awaited<ReturnType<typeof setUp>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    setup = await setUp(smtp.url);
  });
  afterAll(async () => {
    await setup.testApp.close();
    await smtp.close();
  });

  it('delivers the PDF to the client with the owner’s subject and message, then records it', async () => {
    const { testApp, owner, client } = setup;
    const statement = (
      await injectOk(testApp.app, 'GET', `/api/clients/${client.id}/statement`, owner.cookie)
    ).json<Statement>();
    expect(statement.emailConfigured).toBe(true);

    const sent = await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${client.id}/statement/send`,
      owner.cookie,
      body,
    );
    expect(sent.json()).toEqual({ sentTo: client.email });

    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail?.to).toMatchObject({ value: [{ address: client.email }] });
    expect(mail?.from?.value).toEqual([{ name: 'Balance', address: 'billing@example.com' }]);
    expect(mail?.replyTo?.value[0]?.address).toBe(owner.email);
    expect(mail?.subject).toBe(body.subject);
    expect(mail?.text?.trim()).toBe(body.message);
    const [attachment] = mail?.attachments ?? [];
    expect(attachment?.contentType).toBe('application/pdf');
    // The client's name as written, whatever its script.
    expect(attachment?.filename).toBe('statement-서연-Müller-2025-05-01-to-2025-06-30.pdf');
    const { text } = await pdfText(new Uint8Array(attachment?.content ?? []));
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('서연 Müller');
    expect(flat).toContain('Amount due ₩1,250,000');
    expect(flat).toContain('May 1, 2025 Balance brought forward');
    expect(flat).toContain('Jun 30, 2025 Closing balance 1,250,000');

    const [latest] = await history(testApp, owner.cookie, client.id);
    expect(latest).toMatchObject({ action: 'statement_sent', after: { email: client.email } });
  });

  it('in Malay when the owner asks in Malay: the statement attached is in Malay', async () => {
    const { testApp, owner, client } = setup;
    const before = smtp.received.length;
    const malay = {
      ...body,
      subject: 'Penyata akaun anda, Mei hingga Jun',
      message: 'Kepada 서연,\n\n₩1,250,000 telah tertunggak.\n\nSekian, terima kasih',
    };
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/statement/send`,
      headers: { cookie: owner.cookie, 'accept-language': 'ms-MY,ms;q=0.9' },
      payload: malay,
    });
    expect(response.statusCode, response.body).toBe(200);
    const mail = smtp.received[before];
    expect(mail?.subject).toBe(malay.subject);
    expect(mail?.text?.trim()).toBe(malay.message);
    const [attachment] = mail?.attachments ?? [];
    const { text } = await pdfText(new Uint8Array(attachment?.content ?? []));
    for (const expected of [
      'Penyata akaun',
      '1 Mei 2025 hingga 30 Jun 2025',
      'Jumlah perlu dibayar',
      '₩1,250,000',
      'Baki dibawa ke hadapan',
      'Baki akhir',
      'Tarikh',
      'Butiran',
      'Caj',
      'Umur hutang pada 30 Jun 2025',
      'Lebih 90 hari',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('Statement of account');
  });

  it('refuses in Malay when asked in Malay', async () => {
    const { testApp, owner, client } = setup;
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/statement/send`,
      headers: { cookie: owner.cookie, 'accept-language': 'ms-MY' },
      payload: { ...body, subject: '  ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'validation',
        message: 'Tidak sah: subject',
        fields: { subject: 'Masukkan subjek.' },
      },
    });
  });

  it('refuses a message with no subject, sending and recording nothing', async () => {
    const { testApp, owner, client } = setup;
    const before = smtp.received.length;
    const events = await history(testApp, owner.cookie, client.id);
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/statement/send`,
      headers: { cookie: owner.cookie },
      payload: { ...body, subject: '  ' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { fields: { subject: 'Enter a subject.' } } });
    expect(smtp.received).toHaveLength(before);
    expect(await history(testApp, owner.cookie, client.id)).toEqual(events);
  });

  it('says so for a client with no e-mail address', async () => {
    const { testApp, owner, client } = setup;
    // An address can be emptied only behind the API's back (the form requires one).
    await testApp.app.db.kysely
      .updateTable('clients')
      .set({ email: '' })
      .where('id', '=', client.id)
      .execute();
    const response = await testApp.app.inject({
      method: 'POST',
      url: `/api/clients/${client.id}/statement/send`,
      headers: { cookie: owner.cookie },
      payload: body,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: {
        code: 'conflict',
        message: 'This client has no e-mail address; add one to send the statement',
      },
    });
  });
});

describe('a statement that cannot be sent records nothing', () => {
  async function attempt(mailUrl: string | null) {
    const setup = await setUp(mailUrl);
    try {
      const { testApp, owner, client } = setup;
      const events = await history(testApp, owner.cookie, client.id);
      const response = await testApp.app.inject({
        method: 'POST',
        url: `/api/clients/${client.id}/statement/send`,
        headers: { cookie: owner.cookie },
        payload: body,
      });
      expect(await history(testApp, owner.cookie, client.id)).toEqual(events);
      return response;
    } finally {
      await setup.testApp.close();
    }
  }

  it('when the mail server refuses it: 502 with the server’s reply', async () => {
    const smtp = await startSmtpServer({
      refuse: { code: 550, text: 'Mailbox unavailable' },
    });
    try {
      const response = await attempt(smtp.url);
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({
        error: {
          code: 'mail_failed',
          message: expect.stringMatching(
            /^The mail server refused the message: 550 .*Mailbox unavailable/,
          ) as unknown,
        },
      });
      expect(smtp.received).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });

  it('when the mail server cannot be reached: 502, said plainly', async () => {
    const response = await attempt(`smtp://127.0.0.1:${await unusedPort()}`);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      error: {
        code: 'mail_failed',
        message: 'The mail server could not be reached; try again later or check SMTP_URL',
      },
    });
  });

  it('when no mail server is set up: 503, and the statement says it cannot be e-mailed', async () => {
    const response = await attempt(null);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: { code: 'mail_not_configured' } });
  });

  it('for another owner’s client: the same 404 as a missing one', async () => {
    const smtp = await startSmtpServer();
    const setup = await setUp(smtp.url);
    try {
      const stranger = await joinAs(setup.testApp.app);
      const response = await setup.testApp.app.inject({
        method: 'POST',
        url: `/api/clients/${setup.client.id}/statement/send`,
        headers: { cookie: stranger.cookie },
        payload: body,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: { code: 'not_found', message: 'Client not found' },
      });
      expect(smtp.received).toHaveLength(0);
    } finally {
      await setup.testApp.close();
      await smtp.close();
    }
  });
});
