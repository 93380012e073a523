import { statementBucketLabels, type StatementBuckets } from './schemas/statement.ts';

/**
 * The columns of a statement's three tables, in order, as the owner's statement page, the PDF,
 * the CSV and the client's link page all write them. `label` is the English text the server
 * translates (src/shared/messages); the app names each column's heading by its key in its own
 * catalogues (statement-column-messages.ts beside the page: the build shortens the keys it finds
 * written in the app's source). `align` is where a cell's text sits: figures at the end, so they
 * line up.
 */
export interface StatementColumn<Key extends string = string> {
  key: Key;
  label: string;
  align: 'start' | 'end';
}

const column = <Key extends string>(
  key: Key,
  label: string,
  align: StatementColumn['align'] = 'start',
): StatementColumn<Key> => ({ key, label, align });

/** What is still (partly) unpaid at the end of the period. */
export const openItemColumns = [
  column('date', 'Date'),
  column('reference', 'Reference'),
  column('dueDate', 'Due date'),
  column('amount', 'Amount', 'end'),
  column('paid', 'Paid', 'end'),
  column('remaining', 'Remaining', 'end'),
  column('daysOverdue', 'Days overdue', 'end'),
] as const;
export type OpenItemColumnKey = (typeof openItemColumns)[number]['key'];

/** The entries of the period with the running balance. */
export const activityColumns = [
  column('date', 'Date'),
  column('description', 'Description'),
  column('dueDate', 'Due date'),
  column('amount', 'Amount', 'end'),
  column('balance', 'Balance', 'end'),
] as const;
export type ActivityColumnKey = (typeof activityColumns)[number]['key'];

export type AgeingColumnKey = keyof StatementBuckets | 'total';

/** What was unpaid on the last day, by how long past due, then the total. */
export const ageingColumns: readonly StatementColumn<AgeingColumnKey>[] = [
  ...(Object.keys(statementBucketLabels) as (keyof StatementBuckets)[]).map((bucket) =>
    column(bucket, statementBucketLabels[bucket], 'end'),
  ),
  column('total', 'Total owed', 'end'),
];

/** A row's cells in its table's column order, from its values by column key. */
export function cellsInOrder<Key extends string, Cell>(
  columns: readonly StatementColumn<Key>[],
  values: Record<Key, Cell>,
): Cell[] {
  return columns.map((each) => values[each.key]);
}
