import type { MailConfig } from '../config.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the plain text. */
  html?: string;
  /** The Message-ID header, `<...@domain>`: the same on every attempt of one message. */
  messageId?: string;
  /** Where the recipient's answer goes (the owner, not the server's own address). */
  replyTo?: string;
  attachments?: MailAttachment[];
}

export class MailError extends Error {
  override name = 'MailError';
  readonly kind: 'refused' | 'unreachable';
  readonly reply: string | null;

  constructor(kind: 'refused' | 'unreachable', reply: string | null, options?: ErrorOptions) {
    super(
      kind === 'refused'
        ? `The mail server refused the message${reply ? `: ${reply}` : ''}`
        : 'The mail server could not be reached; try again later or check SMTP_URL',
      options,
    );
    this.kind = kind;
    this.reply = reply;
  }
}

export interface Mailer {
  /** Resolves once the mail server has accepted the message for delivery; throws MailError. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export async function createMailer(config: MailConfig | null): Promise<Mailer | null> {
  if (!config) return null;
  // Loaded only when mail is configured: it is 13 MB of an idle server's memory otherwise.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(
    {
      url: config.url,
      // A request waits for the answer: an unresponsive server must not hold it for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    },
    { from: config.from },
  );
  return {
    async send(message) {
      try {
        await transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          replyTo: message.replyTo,
          attachments: message.attachments,
        });
      } catch (error) {
        const fault = error as { responseCode?: number; response?: string };
        if (typeof fault.responseCode === 'number')
          throw new MailError('refused', fault.response ?? String(fault.responseCode), {
            cause: error,
          });
        throw new MailError('unreachable', null, { cause: error });
      }
    },
    close() {
      transport.close();
    },
  };
}
