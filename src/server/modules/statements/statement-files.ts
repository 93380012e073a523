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

/** The file name a statement downloads as: the client and the period, in plain characters. */
export function statementFileName(statement: Statement, extension: 'csv' | 'pdf'): string {
  const { client, period } = statement;
  const name = `${client.firstName}-${client.lastName}`
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '')
    .slice(0, 60);
  return `statement-${name || 'client'}-${period.from}-to-${period.to}.${extension}`;
}

/** A Content-Disposition header: a plain fallback name and the exact one (RFC 6266). */
export function attachmentHeader(fileName: string): string {
  return `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/**
 * The statement as a spreadsheet: a few lines naming the client and the period, then one row
 * per entry between the opening and the closing balance, then the ageing. Amounts are decimal
 * text in the client's currency; text from the database is made safe from formulas.
 * Unlike the PDF, it stays in English whatever the owner's language: it is read by programs
 * (an accountant's import, a script), whose column names and numbers must not change with the
 * language of whoever downloaded it (docs/decisions/012-*.md).
 */
export function statementCsv(statement: Statement): string {
  const { client, period, business, ageing } = statement;
  const currency = client.currency;
  const amount = (minor: number | string) => toDecimalText(BigInt(minor), currency);
  const rows: string[][] = [
    ['Statement of account', `${period.from} to ${period.to}`],
    ['From', protectCell(business.name), protectCell(business.address.replaceAll('\n', ', '))],
    ['Client', protectCell(`${client.firstName} ${client.lastName}`), protectCell(client.email)],
    ['Currency', currency],
    [],
    ['Date', 'Description', 'Due date', 'Amount', 'Balance'],
    [period.from, 'Opening balance', '', '', amount(statement.openingBalance)],
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
