import { describe, expect, it } from 'vitest';
import { sqliteQueryPlansForFile } from '../../../../tests/query-plans.ts';
import {
  findEntry,
  ledgerLines,
  ledgerPage,
  ledgerShape,
  listEntries,
  liveOpenings,
  newestEnd,
  statementLines,
} from './ledger.queries.ts';

const plans = sqliteQueryPlansForFile();

describe("one client's ledger (SQLite's plans)", () => {
  it('is read along the index of that client, never by walking all of its owner’s entries', async () => {
    const db = plans.current.recorder;
    // Every ledger command reads these; statements and the client's page read the last two.
    await ledgerLines(db, 'owner', 'client');
    await ledgerPage(db, 'owner', 'client', newestEnd, 16);
    await ledgerShape(db, 'owner', 'client');
    await liveOpenings(db, 'owner', 'client');
    await findEntry(db, 'owner', 'client', 1);
    await listEntries(db, 'owner', 'client', { limit: 100 });
    await listEntries(db, 'owner', 'client', { before: { date: '2026-11-01', id: 5 }, limit: 100 });
    await statementLines(db, 'owner', 'client', 'USD', '2026-11-30');
    const sent = plans.current.take();
    expect(sent).toHaveLength(8);
    for (const { sql, plan } of sent) {
      const entriesStep = plan.find((step) => /^SEARCH (e|entries) USING/.test(step));
      expect(entriesStep, sql).toBeDefined();
      // By the client's index, or (one entry by its id) the primary key; never the owner's.
      expect(entriesStep, sql).toMatch(/entries_client \(client_id=\? AND book_id=\?|rowid=\?/);
    }
  });

  it('is walked newest first from a point, along the index, with no sort', async () => {
    const db = plans.current.recorder;
    await ledgerPage(db, 'owner', 'client', { day: '2026-11-01', id: 5 }, 16);
    const [{ sql, plan }] = plans.current.take() as [{ sql: string; plan: string[] }];
    expect(plan.join('\n'), sql).toMatch(
      /SEARCH e USING INDEX entries_client \(client_id=\? AND book_id=\? AND \(?occurred_on/,
    );
    expect(plan.join('\n'), sql).not.toMatch(/TEMP B-TREE/);
  });
});
