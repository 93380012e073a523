// One owner previews hostile 4 MB bank statements (one tag of 380,000 attributes, as OFX 2 and
// as camt.053; 4 MB of quotes as CSV) one after another, while another owner lists its clients
// one request after another: whether a file that is no statement holds the server (issue 54).
// Each upload's answer and time, the server's memory before and its highest sample during, and
// the other owner's GET /api/clients idle and meanwhile.
import { setTimeout as sleep } from 'node:timers/promises';
import { percentiles, type Percentiles } from './live.ts';
import { rssMb } from './processes.ts';
import { joinOwner } from './seed.ts';

export interface HostileStatementResult {
  /** Each shape's uploads: milliseconds to the answer, and the answer's status and message. */
  uploads: { shape: string; ms: number; status: number; message: string }[];
  rssBeforeMb: number | null;
  rssPeakMb: number | null;
  /** The other owner's GET /api/clients with nothing else running, and during the uploads. */
  idle: Percentiles;
  during: Percentiles;
}

const fill = 4 * 1024 * 1024 - 4096;

/** The shapes of issue 54, each as the preview's body. */
function hostileBodies(): { shape: string; body: string }[] {
  const attributes = Array.from({ length: 380_000 }, (_, index) => ` a${index}="${index}"`)
    .join('')
    .slice(0, fill);
  const many = attributes.slice(0, attributes.lastIndexOf(' '));
  const body = (format: string, file: string, currency: string) =>
    JSON.stringify({
      accountLabel: 'Main account',
      currency,
      format,
      ...(format === 'csv' && {
        mapping: { date: 0, description: 1, amount: 2, dateOrder: 'YMD', decimal: '.' },
      }),
      file: Buffer.from(file).toString('base64'),
    });
  return [
    {
      shape: 'OFX 2, one tag of 380,000 attributes',
      body: body(
        'ofx',
        `<?xml version="1.0" encoding="UTF-8"?>\n<OFX><SIGNONMSGSRSV1${many}/></OFX>`,
        'USD',
      ),
    },
    {
      shape: 'camt.053, one tag of 380,000 attributes',
      body: body(
        'camt053',
        `<?xml version="1.0"?><Document${many}><BkToCstmrStmt/></Document>`,
        'CAD',
      ),
    },
    { shape: 'CSV, 4 MB of quotes', body: body('csv', '"'.repeat(fill), 'USD') },
  ];
}

async function timedList(baseUrl: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/clients`, { headers: { cookie } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`GET /api/clients answered ${response.status}`);
  return performance.now() - started;
}

/** The other owner's list, one request after another (a short pause between), until `done`. */
async function listUntil(baseUrl: string, cookie: string, done: () => boolean) {
  const times: number[] = [];
  while (!done()) {
    times.push(await timedList(baseUrl, cookie));
    await sleep(5);
  }
  return times;
}

export async function hostileStatements(options: {
  baseUrl: string;
  serverPid: number;
  /** Uploads of each shape, one after another. */
  runs: number;
  log: (line: string) => void;
}): Promise<HostileStatementResult> {
  const { baseUrl, serverPid, runs, log } = options;
  const sender = await joinOwner(baseUrl);
  const other = await joinOwner(baseUrl);
  for (let i = 0; i < 20; i++) {
    const answer = await fetch(`${baseUrl}/api/clients`, {
      method: 'POST',
      headers: { cookie: other.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Other',
        lastName: `Owner${i}`,
        email: `other.${i}@example.com`,
        phone: '+1 555 0100100',
        currency: 'USD',
      }),
    });
    if (answer.status !== 201)
      throw new Error(`POST /api/clients answered ${answer.status}: ${await answer.text()}`);
  }
  log("hostile statements: the other owner's list, idle");
  const idleUntil = performance.now() + 3000;
  const idle = percentiles(
    await listUntil(baseUrl, other.cookie, () => performance.now() > idleUntil),
  );

  const bodies = hostileBodies();
  const rssBeforeMb = rssMb(serverPid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    const now = rssMb(serverPid);
    if (now !== null && (rssPeakMb === null || now > rssPeakMb)) rssPeakMb = now;
  }, 20);
  const uploads: HostileStatementResult['uploads'] = [];
  let finished = false;
  log(`hostile statements: ${bodies.length} shapes, ${runs} uploads each`);
  const sending = (async () => {
    try {
      for (const { shape, body } of bodies)
        for (let run = 0; run < runs; run++) {
          const started = performance.now();
          const response = await fetch(`${baseUrl}/api/bank/preview`, {
            method: 'POST',
            headers: { cookie: sender.cookie, 'content-type': 'application/json' },
            body,
          });
          const answer = (await response.json()) as { error?: { message?: string } };
          uploads.push({
            shape,
            ms: performance.now() - started,
            status: response.status,
            message: answer.error?.message ?? '',
          });
        }
    } finally {
      finished = true;
    }
  })();
  try {
    const [during] = await Promise.all([listUntil(baseUrl, other.cookie, () => finished), sending]);
    return { uploads, rssBeforeMb, rssPeakMb, idle, during: percentiles(during) };
  } finally {
    clearInterval(sampler);
  }
}
