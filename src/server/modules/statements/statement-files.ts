import { stringify } from 'csv-stringify/sync';
import { protectCell } from '../../../shared/csv.ts';
import { toDecimalText } from '../../../shared/money.ts';
import {
  statementBucketLabels,
  type Statement,
  type StatementBuckets,
} from '../../../shared/schemas/statement.ts';

// A statement as files to download or send, made from the same figures as the page: its file
// names and the CSV here; the PDF in statement-pdf.ts (made in a worker thread).

const byteOrderMark = '\uFEFF';

/** Characters no file system takes in a name, and invisible ones that could disguise it. */
const unsafeInFileName = /[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu;

export interface FileName {
  /** As it is written, in any script. */
  exact: string;
  /** In plain ASCII, for the few programs that do not read RFC 6266's `filename*`. */
  ascii: string;
}

/**
 * The file name a statement downloads as: the client's name as it is written, in any script
 * ("statement-지우-Ødegård-2025-05-01-to-2025-05-31.pdf"), and the period; the ASCII fallback
 * drops accents and leaves out other scripts ("statement-degard-...", else "statement-client-...").
 */
export function statementFileName(statement: Statement, extension: 'csv' | 'pdf'): FileName {
  const { client, period } = statement;
  const written = `${client.firstName} ${client.lastName}`.replace(unsafeInFileName, '').trim();
  const exact = [...written].slice(0, 60).join('').trim().replace(/\s+/gu, '-');
  const ascii = exact
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
  const named = (name: string) =>
    `statement-${name || 'client'}-${period.from}-to-${period.to}.${extension}`;
  return { exact: named(exact), ascii: named(ascii) };
}

/** UTF-8 percent-encoding of everything but RFC 8187's attr-char (encodeURIComponent leaves '()* as they are). */
const encodeExtValue = (text: string) =>
  encodeURIComponent(text).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

/** A Content-Disposition header: a plain fallback name and the exact one (RFC 6266). */
export function attachmentHeader({ exact, ascii }: FileName): string {
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(exact)}`;
}

/**
 * The statement as a spreadsheet, with what the PDF says: the business and how to pay, the
 * amount due, the open items, the activity of the period between the balance brought forward
 * and the closing balance, and the ageing. Amounts are decimal text in the client's currency
 * (a credit with a minus: a program reads it); text from the database is made safe from formulas.
 * Unlike the PDF, it stays in English whatever the owner's language: it is read by programs
 * (an accountant's import, a script), whose column names and numbers must not change with the
 * language of whoever downloaded it (docs/decisions/012-*.md).
 */
export function statementCsv(statement: Statement): string {
  const { client, period, business, ageing, amountDue } = statement;
  const currency = client.currency;
  const amount = (minor: number | string) => toDecimalText(BigInt(minor), currency);
  const rows: string[][] = [
    ['Statement of account', `${period.from} to ${period.to}`],
    ['From', protectCell(business.name), protectCell(business.address.replaceAll('\n', ', '))],
    ['Client', protectCell(`${client.firstName} ${client.lastName}`), protectCell(client.email)],
    ['Currency', currency],
    [],
    ['Amount due', amount(amountDue.amount)],
    ['Overdue', amount(amountDue.overdue)],
    ['Pay by', amountDue.payBy ?? ''],
    ['Payment details', protectCell(business.paymentDetails.replaceAll('\n', ', '))],
    [],
    ['Open items'],
    ['Date', 'Reference', 'Due date', 'Amount', 'Paid', 'Remaining', 'Days overdue'],
    ...statement.openItems.map((item) => [
      item.date,
      protectCell(item.reference),
      item.dueDate,
      amount(item.amount),
      amount(item.paid),
      amount(item.remaining),
      String(item.daysOverdue),
    ]),
    [],
    ['Activity in the period'],
    ['Date', 'Description', 'Due date', 'Amount', 'Balance'],
    [period.from, 'Balance brought forward', '', '', amount(statement.openingBalance)],
    ...statement.lines.map((line) => [
      line.date,
      protectCell(line.description),
      line.dueDate ?? '',
      amount(line.amount),
      amount(line.balance),
    ]),
    [period.to, 'Closing balance', '', '', amount(statement.closingBalance)],
    [],
    [`Ageing on ${ageing.asOf}`, ...Object.values(statementBucketLabels), 'Total owed'],
    [
      '',
      ...(Object.keys(statementBucketLabels) as (keyof StatementBuckets)[]).map((bucket) =>
        amount(ageing.buckets[bucket]),
      ),
      amount(ageing.owed),
    ],
  ];
  return byteOrderMark + stringify(rows);
}
