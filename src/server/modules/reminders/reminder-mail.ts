import { createHash } from 'node:crypto';
import { writtenDay } from '../../../shared/dates.ts';
import { intlLocales, type Locale } from '../../../shared/locales.ts';
import { formatMoney, type Currency } from '../../../shared/money.ts';
import { translate } from '../../i18n.ts';

/** What the e-mail needs of the client. */
interface ReminderClient {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  currency: Currency;
}

interface ReminderCharge {
  entryId: number;
  step: string;
  reference: string;
  dueOn: string;
  remaining: number;
}

export interface ReminderMailInput {
  client: ReminderClient;
  locale: Locale;
  businessName: string;
  paymentDetails: string;
  /** All the client owes, not only the charges named. */
  amountDue: bigint;
  charges: readonly ReminderCharge[];
  today: string;
  link: string | null;
}

export interface ReminderMail {
  subject: string;
  text: string;
  html: string;
}

/** The client's own language, else the owner's, else English (an e-mail has no browser to ask). */
export function languageFor(clientLanguage: Locale | null, ownerLanguage: Locale | null): Locale {
  return clientLanguage ?? ownerLanguage ?? 'en';
}

/** Same ids, same Message-ID: a second attempt of one e-mail is folded by the mail client. */
export function reminderMessageId(ids: readonly number[], domain: string): string {
  const digest = createHash('sha256')
    .update([...ids].sort((a, b) => a - b).join(','))
    .digest('base64url')
    .slice(0, 32);
  return `<reminder.${digest}@${domain}>`;
}

/** The domain of the server's From address; a reserved name when it has none. */
export function messageIdDomain(from: string | undefined): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from ?? '')?.[1];
  return domain ?? 'balance.invalid';
}

/** A header value from text the owner or a client wrote: one line, no control characters. */
function oneLine(text: string): string {
  return [...text]
    .map((character) => (/[\p{Cc}\u2028\u2029]/u.test(character) ? ' ' : character))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** An address a header can carry as it is: nothing but the address. */
export function plainAddress(text: string): string | null {
  return /^[^\s<>@",;:\\()[\]]+@[^\s<>@",;:\\()[\]]+\.[^\s<>@",;:\\()[\]]+$/.test(text)
    ? text
    : null;
}

const stepRank = (step: string) =>
  step === 'before' ? 0 : step === 'due' ? 1 : 1 + Number(step.slice('overdue-'.length));

/** The furthest step among the charges: what the e-mail as a whole is. */
export function leadingStep(charges: readonly { step: string }[]): string {
  return charges.reduce(
    (lead, charge) => (stepRank(charge.step) > stepRank(lead) ? charge.step : lead),
    'before',
  );
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ??
      character,
  );

export function renderReminder(input: ReminderMailInput): ReminderMail {
  const { locale, client } = input;
  const t = (english: string, values?: Record<string, string>) =>
    translate(locale, english, values);
  const money = (minor: number | bigint) =>
    formatMoney(minor, client.currency, intlLocales[locale]);
  const step = leadingStep(input.charges);
  const overdue = step.startsWith('overdue');
  const business = oneLine(input.businessName);
  const name = oneLine(`${client.firstName} ${client.lastName}`);
  const payBy = input.charges.reduce(
    (earliest, charge) => (charge.dueOn < earliest ? charge.dueOn : earliest),
    input.charges[0]?.dueOn ?? input.today,
  );
  const amount = money(input.amountDue);

  const subject = overdue
    ? t('Overdue payment: {amount}', { amount })
    : t('Payment reminder: {amount} due {date}', {
        amount,
        date: writtenDay(payBy, intlLocales[locale]),
      });
  const opening = business
    ? overdue
      ? t('This is a reminder from {business} that a payment is now overdue.', { business })
      : step === 'due'
        ? t('This is a friendly reminder from {business} that a payment is due today.', {
            business,
          })
        : t('This is a friendly reminder from {business} that a payment is due soon.', { business })
    : overdue
      ? t('This is a reminder that a payment is now overdue.')
      : step === 'due'
        ? t('This is a friendly reminder that a payment is due today.')
        : t('This is a friendly reminder that a payment is due soon.');
  const lines = input.charges.map((charge) =>
    t('{reference}: {amount} unpaid, due {date}', {
      reference: oneLine(charge.reference) || t('Charge'),
      amount: money(charge.remaining),
      date: writtenDay(charge.dueOn, intlLocales[locale]),
    }),
  );
  const amountLine = t('Amount due: {amount}', { amount });
  const payLine = overdue
    ? t('Please pay as soon as you can.')
    : t('Please pay by {date}.', { date: writtenDay(payBy, intlLocales[locale]) });
  const details = input.paymentDetails.trim();
  const linkLine = input.link
    ? t('Your statement is always here: {link}', { link: input.link })
    : null;
  const greeting = name ? t('Dear {name},', { name }) : t('Hello,');
  const thanks = t('If you have already paid, thank you, and please disregard this message.');
  const regards = t('Kind regards,');

  const text = [
    greeting,
    '',
    opening,
    '',
    ...lines.map((line) => `- ${line}`),
    '',
    amountLine,
    payLine,
    ...(details ? ['', t('How to pay:'), details] : []),
    ...(linkLine ? ['', linkLine] : []),
    '',
    thanks,
    '',
    regards,
    business || '',
  ]
    .join('\n')
    .trimEnd();

  const paragraph = (content: string) => `<p>${escapeHtml(content).replaceAll('\n', '<br>')}</p>`;
  const html = [
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5; color: #222;">',
    paragraph(greeting),
    paragraph(opening),
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    `<p><strong>${escapeHtml(amountLine)}</strong><br>${escapeHtml(payLine)}</p>`,
    details
      ? `<p>${escapeHtml(t('How to pay:'))}<br>${escapeHtml(details).replaceAll('\n', '<br>')}</p>`
      : '',
    input.link && linkLine
      ? `<p><a href="${escapeHtml(input.link)}">${escapeHtml(linkLine)}</a></p>`
      : '',
    paragraph(thanks),
    paragraph(business ? `${regards}\n${business}` : regards),
    '</body></html>',
  ].join('\n');

  return { subject: oneLine(subject), text, html };
}

/** For the owner who sends it by hand. */
export function mailtoOf(to: string, mail: ReminderMail): string {
  return `mailto:${encodeURIComponent(to)}?subject=${encodeURIComponent(mail.subject)}&body=${encodeURIComponent(mail.text)}`;
}
