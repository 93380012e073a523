import { statementBucketLabels, type StatementBuckets } from './schemas/statement.ts';

/**
 * The columns of a statement's three tables, in order, as the owner's statement page, the PDF,
 * the CSV and the client's link page all write them. `label` is the English text the server
 * translates (src/shared/messages); `messageKey` the key the app's catalogues use
 * (src/client/locales); `align` where a cell's text sits: figures at the end, so they line up.
 */
export interface StatementColumn<Key extends string = string> {
  key: Key;
  label: string;
  messageKey: string;
  align: 'start' | 'end';
}

const column = <Key extends string>(
  key: Key,
  label: string,
  messageKey: string,
  align: StatementColumn['align'] = 'start',
): StatementColumn<Key> => ({ key, label, messageKey, align });

/** What is still (partly) unpaid at the end of the period. */
export const openItemColumns = [
  column('date', 'Date', 'statement.column.date'),
  column('reference', 'Reference', 'statement.column.reference'),
  column('dueDate', 'Due date', 'statement.column.due-date'),
  column('amount', 'Amount', 'statement.column.amount', 'end'),
  column('paid', 'Paid', 'statement.column.paid', 'end'),
  column('remaining', 'Remaining', 'statement.column.remaining', 'end'),
  column('daysOverdue', 'Days overdue', 'statement.column.days-overdue', 'end'),
] as const;
export type OpenItemColumnKey = (typeof openItemColumns)[number]['key'];

/** The entries of the period with the running balance. */
export const activityColumns = [
  column('date', 'Date', 'statement.column.date'),
  column('description', 'Description', 'statement.column.description'),
  column('dueDate', 'Due date', 'statement.column.due-date'),
  column('amount', 'Amount', 'statement.column.amount', 'end'),
  column('balance', 'Balance', 'statement.column.balance', 'end'),
] as const;
export type ActivityColumnKey = (typeof activityColumns)[number]['key'];

const bucketMessageKeys: Record<keyof StatementBuckets, string> = {
  current: 'statement.bucket.current',
  days1to30: 'statement.bucket.days-1-30',
  days31to60: 'statement.bucket.days-31-60',
  days61to90: 'statement.bucket.days-61-90',
  over90: 'statement.bucket.over-90',
};

export type AgeingColumnKey = keyof StatementBuckets | 'total';

/** What was unpaid on the last day, by how long past due, then the total. */
export const ageingColumns: readonly StatementColumn<AgeingColumnKey>[] = [
  ...(Object.keys(statementBucketLabels) as (keyof StatementBuckets)[]).map((bucket) =>
    column(bucket, statementBucketLabels[bucket], bucketMessageKeys[bucket], 'end'),
  ),
  column('total', 'Total owed', 'statement.total-owed', 'end'),
];

/** A row's cells in its table's column order, from its values by column key. */
export function cellsInOrder<Key extends string, Cell>(
  columns: readonly StatementColumn<Key>[],
  values: Record<Key, Cell>,
): Cell[] {
  return columns.map((each) => values[each.key]);
}
