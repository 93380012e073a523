import { addDays } from '../../../shared/dates.ts';

/** What the allocation needs of an entry. */
export interface LedgerLine {
  id: number;
  amount: number;
  date: string;
  dueDate: string | null;
  voidOf: number | null;
}

export interface Allocation {
  /** The part of each entry still unpaid, by id; entries not listed are settled (0). */
  open: Map<number, number>;
  /** The earliest day on which an unpaid amount fell due; null when nothing is owed. */
  oldestDue: string | null;
}

/** The day an amount owed falls due: its due date, or the day it was entered. */
export const dueDay = (line: { date: string; dueDate: string | null }) => line.dueDate ?? line.date;

/**
 * Payments and credits settle the oldest amounts owed first (by date, then as entered). A void
 * and the entry it reverses cancel out and take no part. The open amounts add up to the
 * balance when it is above 0, and to 0 otherwise (what is paid beyond the charges is a credit).
 */
export function allocate(lines: readonly LedgerLine[]): Allocation {
  const voided = new Set(lines.flatMap((line) => (line.voidOf === null ? [] : [line.voidOf])));
  const live = lines.filter((line) => line.voidOf === null && !voided.has(line.id));
  let credit = live.reduce((sum, line) => (line.amount < 0 ? sum - line.amount : sum), 0);
  const debits = live
    .filter((line) => line.amount > 0)
    .sort((a, b) => (a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1));
  const open = new Map<number, number>();
  let oldestDue: string | null = null;
  for (const debit of debits) {
    const settled = Math.min(credit, debit.amount);
    credit -= settled;
    const left = debit.amount - settled;
    if (left === 0) continue;
    open.set(debit.id, left);
    const due = dueDay(debit);
    if (oldestDue === null || due < oldestDue) oldestDue = due;
  }
  return { open, oldestDue };
}

export const ageingBuckets = [
  'current',
  'days1to30',
  'days31to60',
  'days61to90',
  'over90',
] as const;
export type AgeingBucket = (typeof ageingBuckets)[number];

/** The first due day of each overdue bucket, counted back from `today`. */
export function bucketBounds(today: string) {
  return {
    days1to30: addDays(today, -30),
    days31to60: addDays(today, -60),
    days61to90: addDays(today, -90),
  };
}
