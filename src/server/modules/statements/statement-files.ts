import { stringify } from 'csv-stringify/sync';
import { protectCell } from '../../../shared/csv.ts';
import { toDecimalText } from '../../../shared/money.ts';
import {
  statementBucketLabels,
  type Statement,
  type StatementBuckets,
} from '../../../shared/schemas/statement.ts';

const byteOrderMark = '\uFEFF';

/** Characters no file system takes in a name, and invisible ones that could disguise it. */
const unsafeInFileName = /[\p{Cc}\p{Cf}/\\:*?"<>|]+/gu;

export interface FileName {
  exact: string;
  /** For the few programs that do not read RFC 6266's `filename*`. */
  ascii: string;
}

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

/** RFC 8187's attr-char: encodeURIComponent leaves '()* as they are. */
const encodeExtValue = (text: string) =>
  encodeURIComponent(text).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

export function attachmentHeader({ exact, ascii }: FileName): string {
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(exact)}`;
}

/**
 * In English whatever the owner's language: programs read it (decision 012). Text from the
 * database is made safe from formulas.
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
