import { stringify } from 'csv-stringify/sync';
import { protectCell } from '../../../shared/csv.ts';
import type { Locale } from '../../../shared/locales.ts';
import { toDecimalText } from '../../../shared/money.ts';
import { displayName } from '../../../shared/names.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import {
  activityColumns,
  ageingColumns,
  cellsInOrder,
  openItemColumns,
} from '../../../shared/statement-columns.ts';
import { translate } from '../../i18n.ts';

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
  const written = displayName(client).replace(unsafeInFileName, '').trim();
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
 * Labels in the statement's language; dates (ISO) and amounts (decimal text, no symbol) stay as a
 * spreadsheet or a program reads them. Text from the database is made safe from formulas.
 */
export function statementCsv(statement: Statement, locale: Locale): string {
  const { client, period, business, ageing, amountDue } = statement;
  const currency = client.currency;
  const amount = (minor: number | string) => toDecimalText(BigInt(minor), currency);
  const say = (english: string, values?: Record<string, string>) =>
    translate(locale, english, values);
  const rows: string[][] = [
    [say('Statement of account'), say('{from} to {to}', { from: period.from, to: period.to })],
    [say('Statement date'), statement.date],
    [say('Statement no.'), statement.number],
    [say('From'), protectCell(business.name), protectCell(business.address.replaceAll('\n', ', '))],
    [say('Tax ID'), protectCell(business.taxId)],
    [say('Client'), protectCell(displayName(client)), protectCell(client.email)],
    [say('Currency'), currency],
    [],
    [say('Amount due'), amount(amountDue.amount)],
    [say('Overdue'), amount(amountDue.overdue)],
    [say('Pay by'), amountDue.payBy === 'now' ? say('now') : (amountDue.payBy ?? '')],
    [say('Payment details'), protectCell(business.paymentDetails.replaceAll('\n', ', '))],
    [],
    [say('Open items')],
    openItemColumns.map((column) => say(column.label)),
    ...statement.openItems.map((item) =>
      cellsInOrder(openItemColumns, {
        date: item.date,
        reference: protectCell(item.reference),
        dueDate: item.dueDate,
        amount: amount(item.amount),
        paid: amount(item.paid),
        remaining: amount(item.remaining),
        daysOverdue: String(item.daysOverdue),
      }),
    ),
    [],
    [say('Activity in the period')],
    activityColumns.map((column) => say(column.label)),
    cellsInOrder(activityColumns, {
      date: period.from,
      description: say('Balance brought forward'),
      dueDate: '',
      amount: '',
      balance: amount(statement.openingBalance),
    }),
    ...statement.lines.map((line) =>
      cellsInOrder(activityColumns, {
        date: line.date,
        description: protectCell(line.description),
        dueDate: line.dueDate ?? '',
        amount: amount(line.amount),
        balance: amount(line.balance),
      }),
    ),
    cellsInOrder(activityColumns, {
      date: period.to,
      description: say('Closing balance'),
      dueDate: '',
      amount: '',
      balance: amount(statement.closingBalance),
    }),
    [],
    [
      say('Ageing on {day}', { day: ageing.asOf }),
      ...ageingColumns.map((column) => say(column.label)),
    ],
    [
      '',
      ...cellsInOrder(ageingColumns, {
        ...ageing.buckets,
        total: ageing.owed,
      }).map((minor) => amount(minor)),
    ],
  ];
  return byteOrderMark + stringify(rows);
}
