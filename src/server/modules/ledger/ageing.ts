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

/** Part of a payment or credit put on a charge it names (migration 0043): at most `amount`. */
export interface PaymentTarget {
  paymentId: number;
  chargeId: number;
  amount: number;
}

const inOrder = (a: LedgerLine, b: LedgerLine) =>
  a.date === b.date ? a.id - b.id : a.date < b.date ? -1 : 1;

/**
 * Payments and credits first pay the charges they name (`targets`, in the order the payments were
 * made: each target takes at most its amount and what is still unpaid of its charge); the rest
 * settles the oldest amounts owed first (by date, then as entered). A void and the entry it
 * reverses cancel out and take no part, and so do the targets of either. The open amounts add up
 * to the balance when it is above 0, and to 0 otherwise (what is paid beyond the charges is a
 * credit): whatever the targets take from the credit they take from the charges too.
 */
export function allocate(
  lines: readonly LedgerLine[],
  targets: readonly PaymentTarget[] = [],
): Allocation {
  const voided = new Set(lines.flatMap((line) => (line.voidOf === null ? [] : [line.voidOf])));
  const live = lines.filter((line) => line.voidOf === null && !voided.has(line.id));
  let credit = live.reduce((sum, line) => (line.amount < 0 ? sum - line.amount : sum), 0);
  const debits = live.filter((line) => line.amount > 0).sort(inOrder);
  const unpaid = new Map(debits.map((debit) => [debit.id, debit.amount]));
  if (targets.length > 0) {
    const named = new Map<number, PaymentTarget[]>();
    for (const target of targets)
      named.set(target.paymentId, [...(named.get(target.paymentId) ?? []), target]);
    const payers = live.filter((line) => line.amount < 0 && named.has(line.id)).sort(inOrder);
    for (const payer of payers) {
      let left = -payer.amount;
      for (const target of named.get(payer.id) ?? []) {
        const owed = unpaid.get(target.chargeId);
        if (owed === undefined) continue;
        const put = Math.min(target.amount, owed, left);
        unpaid.set(target.chargeId, owed - put);
        left -= put;
        credit -= put;
      }
    }
  }
  const open = new Map<number, number>();
  let oldestDue: string | null = null;
  for (const debit of debits) {
    const owed = unpaid.get(debit.id) ?? 0;
    const settled = Math.min(credit, owed);
    credit -= settled;
    const left = owed - settled;
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
