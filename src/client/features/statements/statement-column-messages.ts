import type {
  ActivityColumnKey,
  AgeingColumnKey,
  OpenItemColumnKey,
} from '../../../shared/statement-columns.ts';

/**
 * Each statement column's heading in the app's catalogues, by the column's key in
 * src/shared/statement-columns.ts; written here, in the app's source, so the build finds and
 * shortens the keys.
 */
export const statementColumnMessages: Record<
  OpenItemColumnKey | ActivityColumnKey | AgeingColumnKey,
  string
> = {
  date: 'statement.column.date',
  reference: 'statement.column.reference',
  dueDate: 'statement.column.due-date',
  amount: 'statement.column.amount',
  paid: 'statement.column.paid',
  remaining: 'statement.column.remaining',
  daysOverdue: 'statement.column.days-overdue',
  description: 'statement.column.description',
  balance: 'statement.column.balance',
  current: 'statement.bucket.current',
  days1to30: 'statement.bucket.days-1-30',
  days31to60: 'statement.bucket.days-31-60',
  days61to90: 'statement.bucket.days-61-90',
  over90: 'statement.bucket.over-90',
  total: 'statement.total-owed',
};
