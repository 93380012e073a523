// This machine's own ceiling for durable payments: a minimal `node:sqlite` script doing what a
// payment must write (its ledger entry, the client's new balance, the event), with the same
// durability as Balance (WAL, synchronous=FULL), committed one by one and in groups of 10. Balance's
// rate over HTTP is read as a fraction of these, measured in the same run: a figure of its own
// would say more about the machine's disk than about Balance.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export interface SqliteCeiling {
  /** Payments a second, each its own transaction. */
  singlePerSecond: number;
  /** Payments a second, ten to a transaction. */
  groupsOfTenPerSecond: number;
}

const clientCount = 1000;

function openDatabase(file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec(`pragma journal_mode = wal; pragma synchronous = full;
    create table clients (id text primary key, balance integer not null, version integer not null);
    create table entries (id text primary key, client_id text not null references clients (id),
      amount integer not null, day text not null, created_at integer not null);
    create index entries_client_day on entries (client_id, day);
    create table events (id integer primary key, client_id text, action text not null,
      at integer not null, detail text)`);
  const addClient = db.prepare('insert into clients (id, balance, version) values (?, 0, 1)');
  db.exec('begin');
  for (let client = 0; client < clientCount; client++) addClient.run(`client${client}`);
  db.exec('commit');
  return db;
}

/** Payments a second over `seconds`, `perTransaction` to a commit. */
function paymentsPerSecond(db: DatabaseSync, perTransaction: number, seconds: number): number {
  const addEntry = db.prepare(
    'insert into entries (id, client_id, amount, day, created_at) values (?, ?, ?, ?, ?)',
  );
  const setBalance = db.prepare(
    'update clients set balance = balance + ?, version = version + 1 where id = ?',
  );
  const addEvent = db.prepare(
    "insert into events (client_id, action, at, detail) values (?, 'entry_added', ?, ?)",
  );
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  let payments = 0;
  while (performance.now() < until) {
    db.exec('begin');
    for (let inGroup = 0; inGroup < perTransaction; inGroup++) {
      const clientId = `client${payments % clientCount}`;
      const now = Date.now();
      addEntry.run(randomBytes(16).toString('base64url'), clientId, -700, '2026-11-27', now);
      setBalance.run(-700, clientId);
      addEvent.run(clientId, now, '{"kind":"payment","amount":-700}');
      payments++;
    }
    db.exec('commit');
  }
  return payments / ((performance.now() - started) / 1000);
}

/** Measures both ceilings on a throwaway file in `dir`, `seconds` each. */
export function measureSqliteCeiling(dir: string, seconds: number): SqliteCeiling {
  const file = path.join(dir, `ceiling-${randomBytes(4).toString('hex')}.sqlite`);
  const db = openDatabase(file);
  try {
    return {
      singlePerSecond: paymentsPerSecond(db, 1, seconds),
      groupsOfTenPerSecond: paymentsPerSecond(db, 10, seconds),
    };
  } finally {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}
