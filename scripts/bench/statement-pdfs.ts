// Another owner's one-page statement PDF while one owner downloads large ones (20,000 entries
// each in a full run, several at a time): PDFs are made in worker threads shared by the
// instance's owners, so this is whether one owner's large PDFs hold up everybody else's
// (decision 019). Also the large PDF's own time, and the server's memory just before the large
// ones are asked for, at its highest while they are made, and a minute after the last one
// (decision 037: at most +200 MB, and back within 50 MB).
import { get } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { addDays, utcDay } from '../../src/shared/dates.ts';
import { percentiles, type Percentiles } from './live.ts';
import { treeRssMb } from './processes.ts';
import { joinOwner, seedLedgers } from './seed.ts';

export interface StatementPdfsResult {
  entries: number;
  /** The large owner's PDFs asked for at a time, each loop asking again on its answer. */
  largeAtATime: number;
  /** One large PDF with nothing else running, milliseconds. */
  largeAloneMs: number;
  /** The other owner's one-page PDF, one after another: alone, then beside the large ones. */
  alone: Percentiles;
  beside: Percentiles;
  /**
   * The server's resident memory with its child processes': before the large PDFs, its highest
   * meanwhile, and a minute after.
   */
  beforeMb: number | null;
  peakMb: number | null;
  minuteAfterMb: number | null;
}

type Owner = { cookie: string };

/** "Memory comes back" is read this long after the last large PDF (issue 54). */
const settleMs = 60_000;

/**
 * Through node:http, which waits as long as the answer takes: six large PDFs of one owner are
 * made one after another, so on a loaded machine the last waits longer than fetch's 5 minutes.
 */
async function timedPdf(baseUrl: string, owner: Owner, path: string): Promise<number> {
  const started = performance.now();
  const { status, body } = await new Promise<{ status: number; body: Buffer }>(
    (resolve, reject) => {
      const request = get(baseUrl + path, { headers: { cookie: owner.cookie } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
    },
  );
  if (status !== 200) throw new Error(`GET ${path} answered ${status}: ${body.toString()}`);
  return performance.now() - started;
}

export async function statementPdfs(options: {
  baseUrl: string;
  serverPid: number;
  dbFile: string;
  entries: number;
  /** The other owner's one-page PDFs timed in each state. */
  samples: number;
  random: () => number;
  log: (line: string) => void;
}): Promise<StatementPdfsResult> {
  const { baseUrl, serverPid, dbFile, entries, samples, random, log } = options;
  const largeAtATime = 6;
  const today = utcDay();
  // seedLedgers dates its entries over the last 200 days: the period takes them all.
  const period = `from=${addDays(today, -199)}&to=${today}`;

  const large = await joinOwner(baseUrl);
  log(`seeding one client with ${entries} ledger entries for its statement`);
  const [largeClientId] = seedLedgers({
    file: dbFile,
    bookId: large.bookId,
    clients: 1,
    entries,
    random,
  });
  if (largeClientId === undefined) throw new Error('the large ledger was not seeded');
  const small = await joinOwner(baseUrl);
  const created = await fetch(`${baseUrl}/api/clients`, {
    method: 'POST',
    headers: { cookie: small.cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'One',
      lastName: 'Page',
      email: 'one.page@example.com',
      phone: '+1 555 0100300',
      currency: 'USD',
      balance: 12_345,
    }),
  });
  if (created.status !== 201) throw new Error(`adding a client answered ${created.status}`);
  const { id: smallClientId } = (await created.json()) as { id: string };
  const largePath = `/api/clients/${largeClientId}/statement.pdf?${period}`;
  const smallPath = `/api/clients/${smallClientId}/statement.pdf?${period}`;

  const smallOnes = async () => {
    const times: number[] = [];
    for (let i = 0; i < samples; i++) times.push(await timedPdf(baseUrl, small, smallPath));
    return percentiles(times);
  };

  log('statement PDFs: warm-up, then the one-page PDF alone');
  await timedPdf(baseUrl, small, smallPath);
  const alone = await smallOnes();
  log(`statement PDFs: one PDF of ${entries} entries alone`);
  const largeAloneMs = await timedPdf(baseUrl, large, largePath);

  log(`statement PDFs: the one-page PDF while ${largeAtATime} large ones are asked for at a time`);
  let stop = false;
  const beforeMb = treeRssMb(serverPid);
  let peakMb = beforeMb;
  const sampler = setInterval(() => {
    const now = treeRssMb(serverPid);
    if (now !== null) peakMb = Math.max(peakMb ?? 0, now);
  }, 250);
  const loops = Array.from({ length: largeAtATime }, async () => {
    try {
      while (!stop) await timedPdf(baseUrl, large, largePath);
    } finally {
      stop = true;
    }
  });
  // Begun after the large ones are all waiting or in the making.
  await sleep(500);
  const others = smallOnes().finally(() => (stop = true));
  const [loopsDone, othersDone] = await Promise.allSettled([Promise.all(loops), others]);
  clearInterval(sampler);
  if (loopsDone.status === 'rejected') throw loopsDone.reason;
  if (othersDone.status === 'rejected') throw othersDone.reason;

  log(`statement PDFs: the server's memory ${settleMs / 1000} s after the last large one`);
  await sleep(settleMs);
  return {
    entries,
    largeAtATime,
    largeAloneMs,
    alone,
    beside: othersDone.value,
    beforeMb,
    peakMb,
    minuteAfterMb: treeRssMb(serverPid),
  };
}
