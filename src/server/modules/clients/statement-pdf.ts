import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { formatMoney } from '../../../shared/money.ts';
import {
  statementBucketLabels,
  type Statement,
  type StatementBuckets,
} from '../../../shared/schemas/statement.ts';

const require = createRequire(import.meta.url);

/**
 * Noto Sans KR (from the npm registry, OFL) covers Latin, Hangul and ₩, so names and amounts in
 * any of our currencies render. Found through the package at run time, from the .ts files and
 * from the server bundle alike; read once, kept for the next statement.
 */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function statementFonts() {
  fonts ??= {
    regular: readFileSync(
      require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
    ),
    bold: readFileSync(
      require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
    ),
  };
  return fonts;
}

const margin = 50;
/** Date, description, due date, amount, balance: together the width of an A4 page's text. */
const columns = [
  { title: 'Date', width: 70, align: 'left' },
  { title: 'Description', width: 175, align: 'left' },
  { title: 'Due', width: 70, align: 'left' },
  { title: 'Amount', width: 90, align: 'right' },
  { title: 'Balance', width: 90, align: 'right' },
] as const;

/** The statement as a PDF (A4), made here on the server with the fonts above embedded. */
export async function statementPdf(statement: Statement): Promise<Buffer> {
  const { client, period, business, ageing } = statement;
  const money = (minor: number | string) => formatMoney(BigInt(minor), client.currency);
  const { regular, bold } = statementFonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: {
      Title: `Statement of account: ${client.firstName} ${client.lastName}, ${period.from} to ${period.to}`,
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
  doc.font('bold').fontSize(14).text('Statement of account', { width });
  doc.font('body').fontSize(10).text(`${period.from} to ${period.to}`, { width });
  doc.moveDown(0.8);
  doc.font('bold').fontSize(11).text(`${client.firstName} ${client.lastName}`, { width });
  doc.font('body').fontSize(9);
  if (client.email) doc.text(client.email, { width });
  if (client.phone) doc.text(client.phone, { width });
  doc.moveDown(0.8);
  doc
    .fontSize(10)
    .text(`Opening balance on ${period.from}: ${money(statement.openingBalance)}`, { width })
    .text(`Closing balance on ${period.to}: ${money(statement.closingBalance)}`, { width });
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
  row([period.from, 'Opening balance', '', '', money(statement.openingBalance)], 'bold');
  for (const line of statement.lines)
    row(
      [line.date, line.description, line.dueDate ?? '', money(line.amount), money(line.balance)],
      'body',
    );
  row([period.to, 'Closing balance', '', '', money(statement.closingBalance)], 'bold');

  // The ageing: what was unpaid on the last day, by how long past due.
  const labels = [...Object.values(statementBucketLabels), 'Total owed'];
  const values = [
    ...(Object.keys(statementBucketLabels) as (keyof StatementBuckets)[]).map((bucket) =>
      money(ageing.buckets[bucket]),
    ),
    money(ageing.owed),
  ];
  if (doc.y + 70 > bottom()) doc.addPage();
  doc.moveDown(1.5);
  doc.font('bold').fontSize(11).text(`Ageing on ${ageing.asOf}`, margin, doc.y, { width });
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
