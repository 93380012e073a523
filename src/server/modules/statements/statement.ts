import type { Kysely } from 'kysely';
import type { Business } from '../../../shared/schemas/settings.ts';
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
import { statementLines } from '../ledger/ledger.queries.ts';

/** Which bucket an amount falling due on `due` is in on `day` (the same bounds as the dashboard). */
function bucketOf(due: string, day: string): AgeingBucket {
  const bounds = bucketBounds(day);
  if (due >= day) return 'current';
  if (due >= bounds.days1to30) return 'days1to30';
  if (due >= bounds.days31to60) return 'days31to60';
  if (due >= bounds.days61to90) return 'days61to90';
  return 'over90';
}

/**
 * A client's statement for a period, worked out from the ledger as it stood at the end of the
 * period: the entries dated before it make the opening balance; the ageing is the allocation
 * (oldest first) of the entries up to its last day, so a statement of a past month shows what
 * was overdue then, not now. Only entries in the client's currency count: any others are an
 * opening balance and its void from before a change of currency, which add up to nothing.
 * Answers null for a client the owner does not have.
 */
export async function readStatement(
  db: Kysely<Database>,
  ownerId: string,
  clientId: string,
  period: StatementPeriod,
  emailConfigured: boolean,
): Promise<Statement | null> {
  const client = await findClient(db, ownerId, clientId);
  if (!client) return null;
  const [lines, business]: [Awaited<ReturnType<typeof statementLines>>, Business] =
    await Promise.all([
      statementLines(db, ownerId, clientId, client.currency, period.to),
      readBusiness(db, ownerId),
    ]);

  const byId = new Map(lines.map((line) => [line.id, line]));
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
        amount: line.amount,
        voidOf: line.voidOf,
        description: describeLine(line, line.voidOf === null ? null : byId.get(line.voidOf)),
        balance: running.toString(),
      });
  }

  const { open } = allocate(lines);
  const buckets: Record<AgeingBucket, bigint> = {
    current: 0n,
    days1to30: 0n,
    days31to60: 0n,
    days61to90: 0n,
    over90: 0n,
  };
  for (const line of lines) {
    const unpaid = open.get(line.id);
    if (unpaid !== undefined) buckets[bucketOf(dueDay(line), period.to)] += BigInt(unpaid);
  }
  const owed = Object.values(buckets).reduce((sum, value) => sum + value, 0n);

  return {
    period,
    client: {
      id: client.id,
      firstName: client.firstName,
      lastName: client.lastName,
      email: client.email,
      phone: client.phone,
      currency: client.currency,
    },
    business,
    openingBalance: opening.toString(),
    lines: shown,
    closingBalance: running.toString(),
    ageing: {
      asOf: period.to,
      owed: owed.toString(),
      overdue: (owed - buckets.current).toString(),
      buckets: Object.fromEntries(
        Object.entries(buckets).map(([name, value]) => [name, value.toString()]),
      ) as StatementBuckets,
    },
    emailConfigured,
  };
}
