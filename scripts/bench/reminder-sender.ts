// The reminder sender's minute with few owners and with many (issue 54 item 5, decision 029):
// every instance runs it once a minute, so its cost must not grow with the owners who turned
// reminders on. The app runs in this process on an SQLite file of its own; each owner has a
// plan and a ledger of unpaid and paid charges (seed.ts `seedLedgers`). The sender's clock is
// set where none of those charges has a step due yet: what a run then costs is what 1,439 of
// a day's 1,440 minutes cost. Mail goes to a mailer that accepts at once (none is sent).
import { DatabaseSync } from 'node:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { ReminderSender } from '../../src/server/modules/reminders/reminder-sender.ts';
import { percentiles, type Percentiles } from './live.ts';
import { seedLedgers } from './seed.ts';

export interface ReminderSenderResult {
  owners: number;
  entries: number;
  /** The first run after start: every owner's charges are read once. */
  firstRunMs: number;
  /** The runs of the minutes after it. */
  minutes: Percentiles;
}

const dayMs = 86_400_000;

export async function reminderSenderMinute(options: {
  owners: number;
  entriesPerOwner: number;
  minutes: number;
  random: () => number;
  log: (line: string) => void;
}): Promise<ReminderSenderResult> {
  const { owners, entriesPerOwner, minutes, random, log } = options;
  const directory = mkdtempSync(path.join(os.tmpdir(), 'balance-reminders-'));
  const file = path.join(directory, 'reminders.sqlite');
  const app = await buildApp({
    config: { ...loadConfig({ DATABASE_URL: file, LOG_LEVEL: 'warn' }) },
    clientDir: null,
  });
  try {
    await app.ready();
    await app.databaseReady;
    log(`reminder sender: seeding ${owners} owners with ${entriesPerOwner} entries each, plans on`);
    const bookIds = Array.from({ length: owners }, (_, index) => `reminder-owner-${index}`);
    const seed = new DatabaseSync(file, { timeout: 30_000 });
    try {
      const addOwner = seed.prepare(
        `insert into users (id, email, email_key, password_hash, is_admin, created_at)
         values (?, ?, ?, 'not a hash', 0, ?)`,
      );
      const addBook = seed.prepare(`insert into books (id, created_at) values (?, ?)`);
      const addMember = seed.prepare(
        `insert into book_members (book_id, user_id, role, created_at) values (?, ?, 'owner', ?)`,
      );
      // The plan most owners would pick, in UTC (the table's other columns keep their defaults).
      const addPlan = seed.prepare(
        `insert into reminder_plans (book_id, enabled, days_before, on_due, overdue_every_days,
           overdue_max, attach_pdf, time_zone, updated_at)
         values (?, 1, 3, 1, 7, 3, 0, 'UTC', ?)`,
      );
      seed.exec('BEGIN');
      for (const id of bookIds) {
        addOwner.run(id, `${id}@example.com`, `${id}@example.com`, Date.now());
        addBook.run(id, Date.now());
        addMember.run(id, id, Date.now());
        addPlan.run(id, Date.now());
      }
      seed.exec('COMMIT');
    } finally {
      seed.close();
    }
    for (const bookId of bookIds)
      seedLedgers({ file, bookId, clients: 10, entries: entriesPerOwner, random });

    // seedLedgers dates its entries over the last 200 days, due 30 days later: 300 days ago
    // none has a step due; the first comes some 130 days after.
    let now = Date.now() - 300 * dayMs;
    let sent = 0;
    const sender = new ReminderSender(app, {
      now: () => now,
      mailer: {
        send: async () => {
          sent += 1;
        },
        close: () => {},
      },
    });
    const timed = async () => {
      const started = performance.now();
      await sender.runOnce();
      return performance.now() - started;
    };
    log('reminder sender: the first run, then its minutes');
    const firstRunMs = await timed();
    const times: number[] = [];
    for (let minute = 0; minute < minutes; minute += 1) {
      now += 60_000;
      times.push(await timed());
    }
    if (sent !== 0) throw new Error(`the quiet minutes sent ${sent} reminders`);
    return {
      owners,
      entries: owners * entriesPerOwner,
      firstRunMs,
      minutes: percentiles(times),
    };
  } finally {
    await app.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
