// One client with a very long ledger (20,000 entries in a full run): what a payment on it costs,
// and whether payments on it, four (or 32) at a time, hold up another owner's payments, which
// wait for the same writer on SQLite. Measured with the ledger as seeded (a long run of it
// unpaid), after a payment that leaves a few charges unpaid (as a client who pays would have),
// and, for the load alone, on a client of the same owner whose ledger is one entry.
import { DatabaseSync } from 'node:sqlite';
import { percentile } from './live.ts';
import { joinOwner, seedClients, seedLedgers } from './seed.ts';

interface PaymentTimes {
  /** Entries of the long ledger with something unpaid, when the payments began. */
  unpaid: number;
  /** One payment at a time on the long ledger, milliseconds each (median). */
  ownMs: number;
  /** Payments on the long ledger sent at a time, each loop sending its next on its answer. */
  loops: number;
  /** Another owner's payments, one at a time, while `loops` loops pay the long ledger. */
  otherP50Ms: number;
  otherP99Ms: number;
}

export interface LongLedgerResult {
  entries: number;
  /** Another owner's payments with nothing else running. */
  idle: { p50Ms: number; p99Ms: number };
  asSeeded: PaymentTimes;
  /** As seeded, with 32 payments on it at a time: one owner's flood of slow writes. */
  flooded: PaymentTimes;
  mostlyPaid: PaymentTimes;
  /** The same payments on a client whose ledger is its opening balance. */
  oneEntry: PaymentTimes;
}

type Owner = { cookie: string };

async function send(baseUrl: string, owner: Owner, path: string, body: object): Promise<string> {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { cookie: owner.cookie, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${text}`);
  return text;
}

async function pay(baseUrl: string, owner: Owner, clientId: string, amount = 1): Promise<number> {
  const started = performance.now();
  await send(baseUrl, owner, `/api/clients/${clientId}/entries`, { kind: 'payment', amount });
  return performance.now() - started;
}

/** Payments one after another, each on the next client of the list: their times, sorted. */
async function payments(baseUrl: string, owner: Owner, clientIds: string[], count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++)
    times.push(await pay(baseUrl, owner, clientIds[i % clientIds.length] as string));
  return times.sort((a, b) => a - b);
}

export async function longLedger(options: {
  baseUrl: string;
  dbFile: string;
  entries: number;
  random: () => number;
  log: (line: string) => void;
}): Promise<LongLedgerResult> {
  const { baseUrl, dbFile, random, log } = options;
  const owner = await joinOwner(baseUrl);
  log(`seeding one client with ${options.entries} ledger entries`);
  const [longId] = seedLedgers({
    file: dbFile,
    bookId: owner.bookId,
    clients: 1,
    entries: options.entries,
    random,
  });
  if (longId === undefined) throw new Error('the long ledger was not seeded');
  // Owing $10,000 as its only entry, so that every payment on it is placed.
  const { id: oneEntryId } = JSON.parse(
    await send(baseUrl, owner, '/api/clients', {
      firstName: 'One',
      lastName: 'Entry',
      email: 'one.entry@example.com',
      phone: '+1 555 0100200',
      currency: 'USD',
      balance: 1_000_000,
    }),
  ) as { id: string };
  const other = await joinOwner(baseUrl);
  const otherIds = seedClients({ file: dbFile, bookId: other.bookId, count: 50, random });

  const database = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const unpaidCount = database.prepare(
      'select count(*) as n from entries where client_id = ? and open_amount > 0',
    );
    const unpaid = (clientId: string) => (unpaidCount.get(clientId) as { n: number }).n;

    const measureState = async (clientId: string, loopCount = 4): Promise<PaymentTimes> => {
      const state = unpaid(clientId);
      const own = await payments(baseUrl, owner, [clientId], 100);
      let stop = false;
      const loops = Array.from({ length: loopCount }, async () => {
        try {
          while (!stop) await pay(baseUrl, owner, clientId);
        } finally {
          // One loop's failure ends the others and the other owner's payments too.
          stop = true;
        }
      });
      const others = payments(baseUrl, other, otherIds, 200).finally(() => (stop = true));
      const [loopsDone, othersDone] = await Promise.allSettled([Promise.all(loops), others]);
      if (loopsDone.status === 'rejected') throw loopsDone.reason;
      if (othersDone.status === 'rejected') throw othersDone.reason;
      const times = othersDone.value;
      return {
        unpaid: state,
        loops: loopCount,
        ownMs: percentile(own, 0.5),
        otherP50Ms: percentile(times, 0.5),
        otherP99Ms: percentile(times, 0.99),
      };
    };

    log('load: payments beside a long ledger');
    const idle = await payments(baseUrl, other, otherIds, 200);
    const oneEntry = await measureState(oneEntryId);
    const asSeeded = await measureState(longId);
    const flooded = await measureState(longId, 32);
    // What is owed now, less about eight average charges: the rest settled by one payment.
    const { balance } = database
      .prepare('select balance from clients where id = ?')
      .get(longId) as { balance: number };
    if (balance > 200_000) await pay(baseUrl, owner, longId, balance - 200_000);
    const mostlyPaid = await measureState(longId);
    return {
      entries: options.entries,
      idle: { p50Ms: percentile(idle, 0.5), p99Ms: percentile(idle, 0.99) },
      asSeeded,
      flooded,
      mostlyPaid,
      oneEntry,
    };
  } finally {
    database.close();
  }
}
