import PDFDocument from 'pdfkit';
import type { Locale } from '../../../shared/locales.ts';
import { currencyLabel } from '../../../shared/money.ts';
import { overdueSince, type Statement } from '../../../shared/schemas/statement.ts';
import {
  activityColumns,
  ageingColumns,
  cellsInOrder,
  openItemColumns,
  type ActivityColumnKey,
  type OpenItemColumnKey,
  type StatementColumn,
} from '../../../shared/statement-columns.ts';
import { statementRecipient } from '../../../shared/names.ts';
import { translate } from '../../i18n.ts';
import { fontFiles, fontRuns, readFont, type Family, type Weight } from './statement-fonts.ts';
import { statementWriting } from './statement-writing.ts';

/**
 * Noto Sans KR covers Latin, Hangul and ₩ (assets/fonts/README.md); its digits share one width,
 * so figures line up without `tnum`, which it lacks. Noto Sans writes the letters it lacks.
 */
let fonts: Record<Family, Record<Weight, Buffer>> | null = null;
function statementFonts() {
  fonts ??= {
    korean: { regular: readFont(fontFiles.korean.regular), bold: readFont(fontFiles.korean.bold) },
    latin: { regular: readFont(fontFiles.latin.regular), bold: readFont(fontFiles.latin.bold) },
  };
  return fonts;
}
const fontName = (family: Family, weight: Weight) => `${family}-${weight}`;

const margin = 50;
const black = '#000000';
const grey = '#555555';
const rule = '#bbbbbb';
const overdueRed = '#b00020';

interface Column {
  title: string;
  width: number;
  align: 'left' | 'right';
}

/** Points across an A4 page less its margins. */
const openItemWidths: Record<OpenItemColumnKey, number> = {
  date: 64,
  reference: 123,
  dueDate: 64,
  amount: 64,
  paid: 60,
  remaining: 64,
  daysOverdue: 56,
};
const activityWidths: Record<ActivityColumnKey, number> = {
  date: 66,
  description: 189,
  dueDate: 66,
  amount: 87,
  balance: 87,
};
interface Row {
  cells: string[];
  bold?: boolean;
  red?: number[];
}

export async function statementPdf(statement: Statement, locale: Locale = 'en'): Promise<Buffer> {
  const { client, period, business, ageing, amountDue } = statement;
  const {
    figure,
    balance: balanceFigure,
    money,
    day,
    kind,
    describe,
  } = statementWriting(client.currency, locale);
  const periodText = translate(locale, '{from} to {to}', {
    from: day(period.from),
    to: day(period.to),
  });
  const recipient = statementRecipient(client);
  const clientName = recipient.name;

  const doc = new PDFDocument({
    size: 'A4',
    margin,
    info: {
      Title: translate(locale, 'Statement of account: {name}, {period}', {
        name: clientName,
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
  const files = statementFonts();
  for (const family of ['korean', 'latin'] as const)
    for (const weight of ['regular', 'bold'] as const)
      doc.registerFont(fontName(family, weight), files[family][weight]);
  // pdfkit embeds a registered font only once text is written in it.
  let weight: Weight = 'regular';
  const use = (next: Weight, size?: number) => {
    weight = next;
    doc.font(fontName('korean', next));
    if (size !== undefined) doc.fontSize(size);
    return doc;
  };
  /** doc.text, in the face that has the text's letters: a run at a time, continued. */
  const write = (text: string, options: PDFKit.Mixins.TextOptions, x?: number, y?: number) => {
    const runs = fontRuns(text);
    runs.forEach((run, index) => {
      doc.font(fontName(run.family, weight));
      const more = { ...options, continued: index < runs.length - 1 };
      if (index === 0 && x !== undefined) doc.text(run.text, x, y, more);
      else doc.text(run.text, more);
    });
    doc.font(fontName('korean', weight));
    return doc;
  };
  /**
   * A run Noto Sans KR lacks counts as its missing glyph, 1 em wide: wider than nearly any letter,
   * so a row of mixed text is measured as tall as it is drawn, or taller.
   */
  const heightOf = (text: string, width: number) => {
    const runs = fontRuns(text);
    doc.font(fontName(runs.length === 1 ? runs[0]!.family : 'korean', weight));
    const height = doc.heightOfString(text, { width });
    doc.font(fontName('korean', weight));
    return height;
  };

  const width = doc.page.width - 2 * margin;
  const bottom = () => doc.page.height - margin;
  const heading = (text: string) => {
    if (doc.y + 60 > bottom()) doc.addPage();
    doc.moveDown(1.2);
    use('bold', 11).fillColor(black);
    write(text, { width }, margin, doc.y);
    doc.moveDown(0.3);
  };

  const top = margin;
  const half = width / 2 - 10;
  use('bold', 15).fillColor(black);
  write(business.name || ' ', { width: half }, margin, top);
  if (business.address) {
    use('regular', 9);
    write(business.address, { width: half });
  }
  if (business.taxId) {
    use('regular', 9);
    write(translate(locale, 'Tax ID: {taxId}', { taxId: business.taxId }), { width: half });
  }
  const leftBottom = doc.y;
  // The statement's own words and dates: Noto Sans KR has all their letters.
  use('bold', 14).text(translate(locale, 'Statement of account'), margin + width - half, top, {
    width: half,
    align: 'right',
  });
  use('regular', 9.5)
    .text(translate(locale, 'Statement date: {day}', { day: day(statement.date) }), {
      width: half,
      align: 'right',
    })
    .text(translate(locale, 'Statement no.: {number}', { number: statement.number }), {
      width: half,
      align: 'right',
    })
    .text(periodText, { width: half, align: 'right' })
    .text(
      translate(locale, 'Statement in {currency}', { currency: currencyLabel[client.currency] }),
      {
        width: half,
        align: 'right',
      },
    );
  doc.y = Math.max(leftBottom, doc.y) + 14;
  use('bold', 11);
  write(clientName, { width }, margin, doc.y);
  if (recipient.contact) {
    use('regular', 10);
    write(recipient.contact, { width });
  }
  use('regular', 9);
  for (const line of recipient.address) write(line, { width });
  if (recipient.taxId)
    write(translate(locale, 'Tax ID: {taxId}', { taxId: recipient.taxId }), { width });
  if (client.email) write(client.email, { width });
  if (client.phone) write(client.phone, { width });
  doc.moveDown(1);

  const boxTop = doc.y;
  const pad = 10;
  const leftWidth = 200;
  const rightX = margin + pad + leftWidth + 20;
  const rightWidth = width - (rightX - margin) - pad;
  const owed = BigInt(amountDue.amount);
  const overdue = BigInt(amountDue.overdue);
  const lateSince = overdueSince(statement.openItems);
  use('regular', 9)
    .fillColor(grey)
    .text(translate(locale, 'Amount due'), margin + pad, boxTop + pad, { width: leftWidth });
  use('bold', 18).fillColor(black).text(money(owed), { width: leftWidth });
  use('regular', 9.5);
  if (owed === 0n) {
    const closing = BigInt(statement.closingBalance);
    doc.text(
      closing < 0n
        ? translate(locale, 'Nothing to pay: a credit of {amount} is yours.', {
            amount: money(-closing),
          })
        : translate(locale, 'Nothing to pay.'),
      { width: leftWidth },
    );
  } else {
    if (overdue > 0n)
      doc
        .fillColor(overdueRed)
        .text(translate(locale, 'Overdue: {amount}', { amount: money(overdue) }), {
          width: leftWidth,
        });
    use('bold')
      .fillColor(black)
      .text(
        lateSince
          ? translate(locale, 'Overdue since {day}: please pay now', { day: day(lateSince) })
          : translate(locale, 'Pay by: {day}', {
              day:
                amountDue.payBy === 'now'
                  ? translate(locale, 'now')
                  : day(amountDue.payBy ?? period.to),
            }),
        { width: leftWidth },
      );
  }
  const leftEnd = doc.y;
  let rightEnd = boxTop;
  if (business.paymentDetails) {
    use('regular', 9)
      .fillColor(grey)
      .text(translate(locale, 'How to pay'), rightX, boxTop + pad, { width: rightWidth });
    use('regular', 9.5).fillColor(black);
    write(business.paymentDetails, { width: rightWidth });
    rightEnd = doc.y;
  }
  const boxBottom = Math.max(leftEnd, rightEnd) + pad;
  doc
    .rect(margin, boxTop, width, boxBottom - boxTop)
    .lineWidth(1)
    .strokeColor(black)
    .stroke();
  doc.x = margin;
  doc.y = boxBottom;

  const columnsOf = <Key extends string>(
    list: readonly StatementColumn<Key>[],
    widths: Record<Key, number>,
  ): Column[] =>
    list.map((column) => ({
      title: translate(locale, column.label),
      width: widths[column.key],
      align: column.align === 'end' ? 'right' : 'left',
    }));
  const table = (columns: Column[], rows: Row[]) => {
    const size = 8.5;
    const rowHeight = (cells: string[], rowWeight: Weight) => {
      use(rowWeight, size);
      return (
        Math.max(
          ...cells.map((cell, index) => heightOf(cell || ' ', (columns[index]?.width ?? 60) - 6)),
        ) + 6
      );
    };
    const draw = (row: Row, isHeader: boolean) => {
      const rowWeight = isHeader || row.bold ? 'bold' : 'regular';
      const height = rowHeight(row.cells, rowWeight);
      if (doc.y + height > bottom()) {
        doc.addPage();
        if (!isHeader) draw({ cells: columns.map((column) => column.title) }, true);
      }
      const rowTop = doc.y;
      let x = margin;
      row.cells.forEach((cell, index) => {
        const column = columns[index];
        if (!column) return;
        use(rowWeight, size).fillColor(
          row.red?.includes(index) ? overdueRed : isHeader ? grey : black,
        );
        write(cell, { width: column.width - 6, align: column.align }, x + 3, rowTop + 3);
        x += column.width;
      });
      doc
        .moveTo(margin, rowTop + height)
        .lineTo(margin + width, rowTop + height)
        .lineWidth(isHeader ? 0.8 : 0.4)
        .strokeColor(isHeader ? black : rule)
        .stroke();
      doc.x = margin;
      doc.y = rowTop + height;
    };
    draw({ cells: columns.map((column) => column.title) }, true);
    for (const row of rows) draw(row, false);
  };
  const note = (text: string) => {
    use('regular', 9)
      .fillColor(grey)
      .text(text, margin, doc.y + 4, { width });
    doc.fillColor(black);
  };

  heading(translate(locale, 'Open items'));
  if (statement.openItems.length === 0) note(translate(locale, 'Nothing is unpaid.'));
  else
    table(
      columnsOf(openItemColumns, openItemWidths),
      statement.openItems.map((item) => ({
        cells: cellsInOrder(openItemColumns, {
          date: day(item.date),
          reference: item.reference || kind(item.kind),
          dueDate: day(item.dueDate),
          amount: figure(item.amount),
          paid: figure(item.paid),
          remaining: figure(item.remaining),
          daysOverdue: item.daysOverdue > 0 ? String(item.daysOverdue) : '',
        }),
        red:
          item.daysOverdue > 0
            ? [openItemColumns.findIndex((column) => column.key === 'daysOverdue')]
            : [],
      })),
    );

  heading(translate(locale, 'Activity in the period'));
  const balanceRow = (date: string, description: string, balance: string): Row => ({
    cells: cellsInOrder(activityColumns, {
      date: day(date),
      description,
      dueDate: '',
      amount: '',
      balance: balanceFigure(balance),
    }),
    bold: true,
  });
  table(columnsOf(activityColumns, activityWidths), [
    balanceRow(period.from, translate(locale, 'Balance brought forward'), statement.openingBalance),
    ...statement.lines.map((line) => ({
      cells: cellsInOrder(activityColumns, {
        date: day(line.date),
        description: describe(line),
        dueDate: line.dueDate ? day(line.dueDate) : '',
        amount: figure(line.amount),
        balance: balanceFigure(line.balance),
      }),
    })),
    balanceRow(period.to, translate(locale, 'Closing balance'), statement.closingBalance),
  ]);
  if (statement.lines.length === 0) note(translate(locale, 'No entries in this period'));

  // A label that wraps (Malay's) pushes every figure down rather than running into its own.
  const labels = ageingColumns.map((column) => translate(locale, column.label));
  const values = cellsInOrder(ageingColumns, { ...ageing.buckets, total: ageing.owed }).map(
    (minor) => figure(minor),
  );
  heading(translate(locale, 'Ageing on {day}', { day: day(ageing.asOf) }));
  const cell = width / labels.length;
  use('bold', 8.5);
  const labelHeight = Math.max(
    ...labels.map((label) => doc.heightOfString(label, { width: cell - 6 })),
  );
  if (doc.y + labelHeight + 30 > bottom()) doc.addPage();
  const labelTop = doc.y;
  labels.forEach((label, index) => {
    use('bold', 8.5)
      .fillColor(grey)
      .text(label, margin + index * cell, labelTop, { width: cell - 6, align: 'right' });
  });
  const valueTop = labelTop + labelHeight + 4;
  doc
    .moveTo(margin, valueTop - 2)
    .lineTo(margin + width, valueTop - 2)
    .lineWidth(0.8)
    .strokeColor(black)
    .stroke();
  values.forEach((value, index) => {
    const key = ageingColumns[index]?.key;
    const late = key !== 'current' && key !== 'total' && value !== '';
    use(index === values.length - 1 ? 'bold' : 'regular', 9)
      .fillColor(late ? overdueRed : black)
      .text(value, margin + index * cell, valueTop + 2, { width: cell - 6, align: 'right' });
  });
  doc.x = margin;
  doc.y = valueTop + 18;
  note(
    translate(
      locale,
      'Amounts are in {currency}. Amounts in parentheses are payments and credits.',
      {
        currency: currencyLabel[client.currency],
      },
    ),
  );
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
