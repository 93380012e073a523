import { createHash } from 'node:crypto';
import type { Locale } from '../../../shared/locales.ts';
import { currencyLabel } from '../../../shared/money.ts';
import { statementRecipient } from '../../../shared/names.ts';
import { overdueSince, type Statement } from '../../../shared/schemas/statement.ts';
import {
  activityColumns,
  ageingColumns,
  cellsInOrder,
  openItemColumns,
  type StatementColumn,
} from '../../../shared/statement-columns.ts';
import { translate, type MessageValues } from '../../i18n.ts';
import { statementWriting } from '../statements/statement-writing.ts';

// The page a client opens with their link: plain HTML with no script, the statement's figures
// and columns as the owner's statement page and the PDF show them, and nothing else of the
// owner's. Its one stylesheet is inline, allowed by its hash in the page's own CSP. Its dark
// colours are for screens only: printed, a dark mode would put light grey text on white paper.

const style = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans KR",sans-serif;color:#1d2125;background:#f3f4f6}
main{max-width:960px;margin:0 auto;padding:16px}
.sheet{background:#fff;border:1px solid #d9dce0;border-radius:8px;padding:24px}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:12px;margin-bottom:12px}
h1{font-size:1.5rem;margin:0 0 4px}
h2{font-size:1rem;margin:24px 0 8px}
p{margin:0}
.small{font-size:.875rem}
.muted{color:#5c636a}
.business{font-size:1.2rem;font-weight:600;margin-bottom:4px}
.pre{white-space:pre-line}
.end{text-align:right}
.right{margin-left:auto}
.strong{font-weight:600}
.owed{color:#b00020}
.due{border:1px solid #1d2125;border-radius:4px;padding:16px;margin:16px 0;display:flex;flex-wrap:wrap;gap:16px}
.due>div{flex:1 1 240px}
.amount{font-size:1.75rem;font-weight:600;margin:0 0 4px}
.actions{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 16px}
.button{display:inline-block;padding:6px 12px;border:1px solid #6c757d;border-radius:4px;color:#1d2125;text-decoration:none;font-size:.875rem;background:#fff}
.button:hover,.button:focus{background:#e9ecef}
.scroll{--cover:#fff;overflow-x:auto;background:linear-gradient(to right,var(--cover) 40%,transparent) left center/32px 100% no-repeat local,linear-gradient(to left,var(--cover) 40%,transparent) right center/32px 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgb(0 0 0/28%),transparent) left center/14px 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgb(0 0 0/28%),transparent) right center/14px 100% no-repeat scroll}
.scroll:focus-visible{outline:3px solid #3f3cbb;outline-offset:2px}
.swipe{display:none;margin-bottom:4px}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
th,td{padding:4px 8px;border-bottom:1px solid #dee2e6;vertical-align:top}
th{font-size:.875rem;text-align:left}
th.end{text-align:right}
.nowrap{white-space:nowrap}
.plain{max-width:560px;margin:48px auto}
.note{margin-top:16px}
@media (max-width:575px){main{padding:8px}.sheet{padding:16px}header{display:block}header>div+div{margin-top:12px}.swipe{display:block}}
@media screen and (prefers-color-scheme:dark){body{background:#121416;color:#e6e8ea}.sheet,.button{background:#1b1e21;border-color:#3a3f44;color:#e6e8ea}.due{border-color:#e6e8ea}.muted{color:#a7adb3}.scroll{--cover:#1b1e21}th,td{border-color:#3a3f44}.owed{color:#ff7b8a}.button:hover,.button:focus{background:#2a2e32}}
@media print{@page{margin:12mm}.actions{display:none}body{background:#fff}main,.sheet{padding:0}.sheet{border:0}.scroll{overflow:visible;background:none}.swipe{display:none}thead{display:table-header-group}tr,.due{break-inside:avoid}h2{break-after:avoid}}
`;

/** The page's own policy: no script at all, nothing loaded, only its own inline style. */
export const clientLinkPageCsp = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => escapes[character]!);

function page(locale: Locale, title: string, body: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export type PlainPageReason = 'ended' | 'unknown' | 'rate_limited';

/**
 * What a link that opens nothing shows. An ended (revoked or expired) link names its business; an
 * unknown one names nobody, so a guess learns nothing.
 */
export function plainLinkPage(locale: Locale, reason: PlainPageReason, businessName = ''): string {
  const say = (english: string, values?: MessageValues) => translate(locale, english, values);
  const title = say('This link cannot be opened');
  let text: string;
  if (reason === 'rate_limited')
    text = say('Too many attempts from your address. Please wait and try again.');
  else if (reason === 'ended' && businessName.trim())
    text = say('This link is no longer valid; ask {business} for a new one.', {
      business: businessName.trim(),
    });
  else text = say('This link is no longer valid; ask whoever sent it to you for a new one.');
  return page(
    locale,
    title,
    `<div class="sheet plain"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></div>`,
  );
}

function table(
  label: string,
  columns: readonly StatementColumn[],
  locale: Locale,
  rows: string[],
): string {
  const head = columns
    .map(
      (column) =>
        `<th scope="col"${column.align === 'end' ? ' class="end"' : ''}>${escapeHtml(
          translate(locale, column.label),
        )}</th>`,
    )
    .join('');
  // On a phone the table is wider than the screen: said in words above it, and shaded at the
  // edge that has more (the style above). Focusable, so a keyboard scrolls it too.
  return `<p class="small muted swipe">${escapeHtml(
    translate(locale, 'Swipe or scroll sideways to see every column.'),
  )}</p><div class="scroll" role="region" tabindex="0" aria-label="${escapeHtml(label)}"><table aria-label="${escapeHtml(label)}"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`;
}

const cell = (text: string, className = '') =>
  `<td${className ? ` class="${className}"` : ''}>${escapeHtml(text)}</td>`;

/** The client's statement, as the owner's statement page shows it, with its two downloads. */
export function statementLinkPage(
  statement: Statement,
  locale: Locale,
  files: { pdf: string; csv: string },
): string {
  const say = (english: string, values?: MessageValues) => translate(locale, english, values);
  const { client, business, period, ageing, amountDue } = statement;
  const {
    intl,
    figure,
    balance: balanceFigure,
    money,
    day,
    kind,
    describe,
  } = statementWriting(client.currency, locale);
  const owed = BigInt(amountDue.amount);
  const overdue = BigInt(amountDue.overdue);
  const closing = BigInt(statement.closingBalance);
  const lateSince = overdueSince(statement.openItems);
  const title = business.name.trim()
    ? `${say('Statement of account')} · ${business.name.trim()}`
    : say('Statement of account');

  const businessBlock =
    business.name || business.address || business.taxId
      ? `<div>${business.name ? `<p class="business">${escapeHtml(business.name)}</p>` : ''}${
          business.address ? `<p class="small pre">${escapeHtml(business.address)}</p>` : ''
        }${
          business.taxId
            ? `<p class="small" data-testid="tax-id">${escapeHtml(
                say('Tax ID: {taxId}', { taxId: business.taxId }),
              )}</p>`
            : ''
        }</div>`
      : '';
  const header = `<header>${businessBlock}<div class="end right"><h1>${escapeHtml(
    say('Statement of account'),
  )}</h1><p class="small" data-testid="statement-date">${escapeHtml(
    say('Statement date: {day}', { day: day(statement.date) }),
  )}</p><p class="small" data-testid="statement-number">${escapeHtml(
    say('Statement no.: {number}', { number: statement.number }),
  )}</p><p class="small">${escapeHtml(
    say('{from} to {to}', { from: day(period.from), to: day(period.to) }),
  )}</p><p class="small">${escapeHtml(
    say('Statement in {currency}', { currency: currencyLabel[client.currency] }),
  )}</p></div></header>`;
  // Whom the statement is to: company, contact person, address, tax id (never private notes).
  const recipient = statementRecipient(client);
  const smallLine = (text: string) => `<p class="small">${escapeHtml(text)}</p>`;
  const clientBlock = [
    `<p class="strong">${escapeHtml(recipient.name)}</p>`,
    recipient.contact ? `<p>${escapeHtml(recipient.contact)}</p>` : '',
    ...recipient.address.map(smallLine),
    recipient.taxId ? smallLine(say('Tax ID: {taxId}', { taxId: recipient.taxId })) : '',
    client.email ? smallLine(client.email) : '',
    client.phone ? smallLine(client.phone) : '',
  ].join('');

  let dueText: string;
  if (owed === 0n)
    dueText = `<p>${escapeHtml(
      closing < 0n
        ? say('Nothing to pay: a credit of {amount} is yours.', { amount: money(-closing) })
        : say('Nothing to pay.'),
    )}</p>`;
  else
    dueText =
      (overdue > 0n
        ? `<p class="owed" data-testid="overdue">${escapeHtml(
            say('Overdue: {amount}', { amount: money(overdue) }),
          )}</p>`
        : '') +
      `<p class="strong" data-testid="pay-by">${escapeHtml(
        lateSince
          ? say('Overdue since {day}: please pay now', { day: day(lateSince) })
          : say('Pay by: {day}', {
              day: amountDue.payBy === 'now' ? say('now') : day(amountDue.payBy ?? period.to),
            }),
      )}</p>`;
  const payment = business.paymentDetails
    ? `<div><p class="small muted">${escapeHtml(say('How to pay'))}</p><p class="pre" data-testid="payment-details">${escapeHtml(business.paymentDetails)}</p></div>`
    : '';
  const due = `<section class="due" aria-label="${escapeHtml(say('Amount due'))}"><div><p class="small muted">${escapeHtml(
    say('Amount due'),
  )}</p><p class="amount" data-testid="amount-due">${escapeHtml(money(owed))}</p>${dueText}</div>${payment}</section>`;

  const actions = `<p class="actions"><a class="button" href="${escapeHtml(files.pdf)}" download>${escapeHtml(
    say('Download PDF'),
  )}</a><a class="button" href="${escapeHtml(files.csv)}" download>${escapeHtml(say('Download CSV'))}</a></p>`;

  const openItems =
    statement.openItems.length === 0
      ? `<p class="muted">${escapeHtml(say('Nothing is unpaid.'))}</p>`
      : table(
          say('Open items'),
          openItemColumns,
          locale,
          statement.openItems.map(
            (item) =>
              `<tr>${cellsInOrder(openItemColumns, {
                date: cell(day(item.date), 'nowrap'),
                reference: cell(item.reference || kind(item.kind)),
                dueDate: cell(day(item.dueDate), 'nowrap'),
                amount: cell(figure(item.amount), 'end nowrap'),
                paid: cell(figure(item.paid), 'end nowrap'),
                remaining: cell(figure(item.remaining), 'end nowrap'),
                daysOverdue: cell(
                  item.daysOverdue > 0 ? item.daysOverdue.toLocaleString(intl) : '',
                  'end nowrap owed',
                ),
              }).join('')}</tr>`,
          ),
        );

  const balanceRow = (date: string, description: string, balance: string) =>
    `<tr class="strong">${cellsInOrder(activityColumns, {
      date: cell(day(date), 'nowrap'),
      description: cell(description),
      dueDate: cell(''),
      amount: cell(''),
      balance: cell(balanceFigure(balance), 'end nowrap'),
    }).join('')}</tr>`;
  const activityRows = [
    balanceRow(period.from, say('Balance brought forward'), statement.openingBalance),
    ...statement.lines.map(
      (line) =>
        `<tr>${cellsInOrder(activityColumns, {
          date: cell(day(line.date), 'nowrap'),
          description: cell(describe(line)),
          dueDate: cell(line.dueDate ? day(line.dueDate) : '', 'nowrap'),
          amount: cell(figure(line.amount), 'end nowrap'),
          balance: cell(balanceFigure(line.balance), 'end nowrap'),
        }).join('')}</tr>`,
    ),
    ...(statement.lines.length === 0
      ? [
          `<tr>${cell('')}<td colspan="${activityColumns.length - 1}" class="muted">${escapeHtml(say('No entries in this period'))}</td></tr>`,
        ]
      : []),
    balanceRow(period.to, say('Closing balance'), statement.closingBalance),
  ];
  const activity = table(say('Activity in the period'), activityColumns, locale, activityRows);

  const ageingTable = table(
    say('Ageing on {day}', { day: day(ageing.asOf) }),
    ageingColumns,
    locale,
    [
      `<tr>${ageingColumns
        .map((column) =>
          column.key === 'total'
            ? cell(figure(ageing.owed), 'end nowrap strong')
            : cell(
                figure(ageing.buckets[column.key]),
                `end nowrap${column.key === 'current' ? '' : ' owed'}`,
              ),
        )
        .join('')}</tr>`,
    ],
  );

  const body = `<article class="sheet" aria-label="${escapeHtml(say('Statement of account'))}">
${header}
${clientBlock}
${due}
${actions}
<h2>${escapeHtml(say('Open items'))}</h2>
${openItems}
<h2>${escapeHtml(say('Activity in the period'))}</h2>
${activity}
<h2>${escapeHtml(say('Ageing on {day}', { day: day(ageing.asOf) }))}</h2>
${ageingTable}
<p class="small muted note">${escapeHtml(
    say('Amounts are in {currency}. Amounts in parentheses are payments and credits.', {
      currency: currencyLabel[client.currency],
    }),
  )}</p>
</article>`;
  return page(locale, title, body);
}
