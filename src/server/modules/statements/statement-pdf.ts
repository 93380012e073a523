import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { intlLocales, type Locale } from '../../../shared/locales.ts';
import { formatMoney } from '../../../shared/money.ts';
import { entryKindLabels, type EntryKind } from '../../../shared/schemas/ledger.ts';
import {
  statementBucketLabels,
  type Statement,
  type StatementBuckets,
  type StatementLine,
} from '../../../shared/schemas/statement.ts';
import { translate } from '../../i18n.ts';

const require = createRequire(import.meta.url);

/**
 * Noto Sans KR (OFL) covers Latin, Hangul and ₩, so names and amounts in any of our currencies
 * render: cut down to what a statement needs (assets/fonts/README.md), found through the
 * package's "#fonts/*" import from the .ts files and from the server bundle alike; read once,
 * kept for the next statement.
 */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function statementFonts() {
  fonts ??= {
    regular: readFileSync(require.resolve('#fonts/NotoSansKR-Regular-statement.ttf')),
    bold: readFileSync(require.resolve('#fonts/NotoSansKR-Bold-statement.ttf')),
  };
  return fonts;
}

const margin = 50;
/** Date, description, due date, amount, balance: together the width of an A4 page's text. */
const columnLayout = [
  { width: 70, align: 'left' },
  { width: 175, align: 'left' },
  { width: 70, align: 'left' },
  { width: 90, align: 'right' },
  { width: 90, align: 'right' },
] as const;

/**
 * A day as the language writes it: English keeps the ISO form the statement has always shown;
 * Korean and Malay readers get their own order (2025. 5. 1., 1 Mei 2025).
 */
export function dayIn(locale: Locale, day: string): string {
  if (locale === 'en') return day;
  return new Intl.DateTimeFormat(intlLocales[locale], {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** A statement line in words in a language, as describeLine says it in English. */
function describeLineIn(
  locale: Locale,
  line: StatementLine,
  reversed: { kind: EntryKind; date: string } | undefined,
): string {
  if (locale === 'en') return line.description;
  const kind = (of: EntryKind) => translate(locale, entryKindLabels[of]);
  const what =
    line.kind === 'void' && reversed
      ? translate(locale, 'Void of the {kind} of {date}', {
          kind: kind(reversed.kind).toLocaleLowerCase(intlLocales[locale]),
          date: dayIn(locale, reversed.date),
        })
      : kind(line.kind);
  return line.note ? `${what}: ${line.note}` : what;
}

/**
 * What a void reverses, for the lines of the period; a void of an entry from before the period
 * keeps its English description's day and kind, read back from it.
 */
function reversedOf(statement: Statement, line: StatementLine) {
  if (line.voidOf === null) return undefined;
  const inPeriod = statement.lines.find((other) => other.id === line.voidOf);
  if (inPeriod) return { kind: inPeriod.kind, date: inPeriod.date };
  const match = /^Void of the (\w[\w ]*) of (\d{4}-\d{2}-\d{2})/.exec(line.description);
  const kind = (Object.keys(entryKindLabels) as EntryKind[]).find(
    (each) => entryKindLabels[each].toLowerCase() === match?.[1],
  );
  return kind && match?.[2] ? { kind, date: match[2] } : undefined;
}

/**
 * The statement as a PDF (A4), made here on the server with the fonts above embedded, in the
 * owner's language: labels, money and days.
 */
export async function statementPdf(statement: Statement, locale: Locale = 'en'): Promise<Buffer> {
  const { client, period, business, ageing } = statement;
  const money = (minor: number | string) =>
    formatMoney(BigInt(minor), client.currency, intlLocales[locale]);
  const day = (iso: string) => dayIn(locale, iso);
  const columns = [
    translate(locale, 'Date'),
    translate(locale, 'Description'),
    translate(locale, 'Due'),
    translate(locale, 'Amount'),
    translate(locale, 'Balance'),
  ].map((title, index) => ({ title, ...columnLayout[index]! }));
  const periodText = translate(locale, '{from} to {to}', {
    from: day(period.from),
    to: day(period.to),
  });
  const { regular, bold } = statementFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: {
      Title: translate(locale, 'Statement of account: {name}, {period}', {
        name: `${client.firstName} ${client.lastName}`,
        period: periodText,
      }),
      Author: business.name || 'Balance',
      Creator: 'Balance',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  doc.registerFont('body', regular);
  doc.registerFont('bold', bold);

  const width = doc.page.width - 2 * margin;
  const bottom = () => doc.page.height - margin;

  // The business, then the title and the period.
  doc
    .font('bold')
    .fontSize(16)
    .text(business.name || ' ', margin, margin, { width });
  if (business.address) doc.font('body').fontSize(9).text(business.address, { width });
  doc.moveDown(1);
  doc.font('bold').fontSize(14).text(translate(locale, 'Statement of account'), { width });
  doc.font('body').fontSize(10).text(periodText, { width });
  doc.moveDown(0.8);
  doc.font('bold').fontSize(11).text(`${client.firstName} ${client.lastName}`, { width });
  doc.font('body').fontSize(9);
  if (client.email) doc.text(client.email, { width });
  if (client.phone) doc.text(client.phone, { width });
  doc.moveDown(0.8);
  doc
    .fontSize(10)
    .text(
      translate(locale, 'Opening balance on {day}: {amount}', {
        day: day(period.from),
        amount: money(statement.openingBalance),
      }),
      { width },
    )
    .text(
      translate(locale, 'Closing balance on {day}: {amount}', {
        day: day(period.to),
        amount: money(statement.closingBalance),
      }),
      { width },
    );
  doc.moveDown(1);

  const row = (cells: readonly string[], font: 'body' | 'bold') => {
    doc.font(font).fontSize(9);
    const height =
      Math.max(
        ...cells.map((cell, index) =>
          doc.heightOfString(cell || ' ', { width: (columns[index]?.width ?? 60) - 6 }),
        ),
      ) + 6;
    if (doc.y + height > bottom()) {
      doc.addPage();
      if (font === 'body')
        row(
          columns.map((column) => column.title),
          'bold',
        );
      doc.font(font).fontSize(9);
    }
    const top = doc.y;
    let x = margin;
    cells.forEach((cell, index) => {
      const column = columns[index];
      if (!column) return;
      doc.text(cell, x + 3, top + 3, { width: column.width - 6, align: column.align });
      x += column.width;
    });
    doc
      .moveTo(margin, top + height)
      .lineTo(margin + width, top + height)
      .lineWidth(0.5)
      .strokeColor('#cccccc')
      .stroke();
    doc.x = margin;
    doc.y = top + height;
  };

  row(
    columns.map((column) => column.title),
    'bold',
  );
  row(
    [
      day(period.from),
      translate(locale, 'Opening balance'),
      '',
      '',
      money(statement.openingBalance),
    ],
    'bold',
  );
  for (const line of statement.lines)
    row(
      [
        day(line.date),
        describeLineIn(locale, line, reversedOf(statement, line)),
        line.dueDate ? day(line.dueDate) : '',
        money(line.amount),
        money(line.balance),
      ],
      'body',
    );
  row(
    [day(period.to), translate(locale, 'Closing balance'), '', '', money(statement.closingBalance)],
    'bold',
  );

  // The ageing: what was unpaid on the last day, by how long past due.
  const labels = [
    ...Object.values(statementBucketLabels).map((label) => translate(locale, label)),
    translate(locale, 'Total owed'),
  ];
  const values = [
    ...(Object.keys(statementBucketLabels) as (keyof StatementBuckets)[]).map((bucket) =>
      money(ageing.buckets[bucket]),
    ),
    money(ageing.owed),
  ];
  if (doc.y + 70 > bottom()) doc.addPage();
  doc.moveDown(1.5);
  doc
    .font('bold')
    .fontSize(11)
    .text(translate(locale, 'Ageing on {day}', { day: day(ageing.asOf) }), margin, doc.y, {
      width,
    });
  doc.moveDown(0.3);
  const cell = width / labels.length;
  const top = doc.y;
  labels.forEach((label, index) => {
    doc
      .font('bold')
      .fontSize(9)
      .text(label, margin + index * cell, top, { width: cell - 4, align: 'right' });
    doc
      .font('body')
      .fontSize(9)
      .text(values[index] ?? '', margin + index * cell, top + 14, {
        width: cell - 4,
        align: 'right',
      });
  });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
