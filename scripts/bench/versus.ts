// Balance beside json-server on the same list and the same balance changes. json-server is
// started by the bench (json-server.ts) on a JSON file holding the very clients seeded into
// Balance's SQLite file, and loaded exactly like Balance's own list and balance-change runs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { browserHeaders, measure, type LoadResult, type LoadSettings } from './load.ts';
import { rssMb, startNode } from './processes.ts';

export interface VersusResult {
  clients: number;
  fileMb: number;
  idleMb: number | null;
  list: LoadResult;
  balance: LoadResult;
}

/** The owner's clients as json-server keeps them: one array in one JSON file. */
function writeJsonDb(dbFile: string, bookId: string, jsonFile: string): string[] {
  const db = new DatabaseSync(dbFile, { readOnly: true });
  try {
    const rows = db
      .prepare(
        `select id, first_name, last_name, email, phone, balance, currency, version, created_at
         from clients where book_id = ? order by name_key, id`,
      )
      .all(bookId) as {
      id: string;
      first_name: string;
      last_name: string;
      email: string;
      phone: string;
      balance: number;
      currency: string;
      version: number;
      created_at: number;
    }[];
    const clients = rows.map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phone: row.phone,
      balance: row.balance,
      currency: row.currency,
      version: row.version,
      createdAt: new Date(row.created_at).toISOString(),
    }));
    writeFileSync(jsonFile, JSON.stringify({ clients }, null, 2));
    return clients.map((client) => client.id);
  } finally {
    db.close();
  }
}

export async function measureJsonServer(options: {
  dbFile: string;
  bookId: string;
  dir: string;
  load: LoadSettings;
  log: (line: string) => void;
}): Promise<VersusResult> {
  const jsonFile = path.join(options.dir, 'json-server-db.json');
  const ids = writeJsonDb(options.dbFile, options.bookId, jsonFile);
  const { size } = await import('node:fs/promises').then((fs) => fs.stat(jsonFile));
  const server = await startNode(
    'json-server',
    'scripts/bench/json-server.ts',
    { JSON_SERVER_FILE: jsonFile },
    '/clients?_limit=1',
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleMb = rssMb(server.pid);
    options.log(`load: json-server list, ${ids.length} clients`);
    // The same page as Balance's first: 50 clients in name order (the file is in that order).
    // Asked as a browser asks for Balance's, whatever each then makes of Accept-Encoding.
    const list = await measure(
      server.url,
      { path: '/clients?_page=1&_limit=50', headers: browserHeaders },
      options.load,
    );
    options.log('load: json-server balance change');
    let next = 0;
    const balance = await measure(
      server.url,
      {
        requests: [
          {
            method: 'PATCH',
            headers: { 'content-type': 'application/json' },
            setupRequest: (request) => {
              next++;
              return {
                ...request,
                path: `/clients/${ids[next % ids.length] ?? ''}`,
                body: JSON.stringify({ balance: (next % 100_000) - 20_000 }),
              };
            },
          },
        ],
      },
      options.load,
    );
    return { clients: ids.length, fileMb: size / 2 ** 20, idleMb, list, balance };
  } finally {
    await server.stop();
  }
}
