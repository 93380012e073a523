import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { daysBetween } from '../../../shared/dates.ts';
import {
  describeLine,
  type Statement,
  type StatementBuckets,
  type StatementPeriod,
} from '../../../shared/schemas/statement.ts';
import type { Database } from '../../db/database.ts';
import { readBusiness } from '../settings/settings.queries.ts';
import { allocate, bucketBounds, dueDay, type AgeingBucket } from '../ledger/ageing.ts';
import { findClient } from '../clients/clients.queries.ts';
import { paymentTargets, statementLines } from '../ledger/ledger.queries.ts';

/** Crockford's base 32: no I, L, O or U, so a number read aloud or typed back is not misread. */
const codeAlphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A statement's number, made from what it is of: six characters drawn from the client's id (the
 * same on every statement of that client), then the statement's date. Nothing is stored, so the
 * same statement has the same number on the page, the PDF and the client's link, made any time
 * (docs/decisions/039-statement-date-and-number.md).
 */
function statementNumber(clientId: string, date: string): string {
  const digest = createHash('sha256').update(clientId).digest();
  let bits = digest.readUInt32BE(0);
  let code = '';
  for (let index = 0; index < 6; index++) {
    code += codeAlphabet[bits & 31];
    bits >>>= 5;
  }
  return `${code}-${date.replaceAll('-', '')}`;
}

/** The same bounds as the dashboard. */
function bucketOf(due: string, day: string): AgeingBucket {
  const bounds = bucketBounds(day);
  if (due >= day) return 'current';
  if (due >= bounds.days1to30) return 'days1to30';
  if (due >= bounds.days31to60) return 'days31to60';
  if (due >= bounds.days61to90) return 'days61to90';
  return 'over90';
}

/**
 * As the ledger stood at the period's end, so a past month shows what was owed then. A voided
 * entry and its void add up to nothing: both are left out. Entries in another currency are an
 * opening balance and its void from before a change of currency.
 */
export async function readStatement(
  db: Kysely<Database>,
  bookId: string,
  clientId: string,
  period: StatementPeriod,
  emailConfigured: boolean,
): Promise<Statement | null> {
  const client = await findClient(db, bookId, clientId);
  if (!client) return null;
  const [ledger, targets, business] = await Promise.all([
    statementLines(db, bookId, clientId, client.currency, period.to),
    paymentTargets(db, bookId, clientId),
    readBusiness(db, bookId),
  ]);

  // A void's entry may be dated after the period (a back-dated void): both stay out all the same.
  const voided = new Set(ledger.flatMap((line) => (line.voidOf === null ? [] : [line.voidOf])));
  const lines = ledger.filter((line) => line.voidOf === null && !voided.has(line.id));

  let opening = 0n;
  let running = 0n;
  const shown: Statement['lines'] = [];
  for (const line of lines) {
    running += BigInt(line.amount);
    if (line.date < period.from) opening = running;
    else
      shown.push({
        id: line.id,
        date: line.date,
        dueDate: line.dueDate,
        kind: line.kind,
        note: line.note,
        reference: line.reference,
        method: line.method,
        amount: line.amount,
        description: describeLine(line),
        balance: running.toString(),
      });
  }

  // A payment after the period's end is not among the lines: the charges it names were open then.
  const { open } = allocate(lines, targets);
  const buckets: Record<AgeingBucket, bigint> = {
    current: 0n,
    days1to30: 0n,
    days31to60: 0n,
    days61to90: 0n,
    over90: 0n,
  };
  const openItems: Statement['openItems'] = [];
  for (const line of lines) {
    const unpaid = open.get(line.id);
    if (unpaid === undefined) continue;
    const due = dueDay(line);
    buckets[bucketOf(due, period.to)] += BigInt(unpaid);
    openItems.push({
      id: line.id,
      kind: line.kind,
      date: line.date,
      // An entry from before references were kept has its note as the nearest thing.
      reference: line.reference || line.note,
      dueDate: due,
      amount: line.amount,
      paid: line.amount - unpaid,
      remaining: unpaid,
      daysOverdue: Math.max(0, daysBetween(due, period.to)),
    });
  }
  const owed = Object.values(buckets).reduce((sum, value) => sum + value, 0n);
  const overdue = owed - buckets.current;
  const earliestDue = openItems.reduce<string | null>(
    (earliest, item) => (earliest === null || item.dueDate < earliest ? item.dueDate : earliest),
    null,
  );

  return {
    period,
    client: {
      id: client.id,
      firstName: client.firstName,
      lastName: client.lastName,
      email: client.email,
      phone: client.phone,
      currency: client.currency,
      // The statement goes to the client: the owner's private notes stay out of it.
      company: client.company,
      addressLine1: client.addressLine1,
      addressLine2: client.addressLine2,
      city: client.city,
      postcode: client.postcode,
      country: client.country,
      taxId: client.taxId,
    },
    business,
    date: period.to,
    number: statementNumber(client.id, period.to),
    openingBalance: opening.toString(),
    lines: shown,
    closingBalance: running.toString(),
    amountDue: {
      amount: owed.toString(),
      overdue: overdue.toString(),
      payBy: overdue > 0n ? 'now' : earliestDue,
    },
    openItems,
    ageing: {
      asOf: period.to,
      owed: owed.toString(),
      overdue: overdue.toString(),
      buckets: Object.fromEntries(
        Object.entries(buckets).map(([name, value]) => [name, value.toString()]),
      ) as StatementBuckets,
    },
    emailConfigured,
  };
}
