import { describe, expect, it } from 'vitest';
import { sqliteQueryPlansForFile } from '../../../../tests/query-plans.ts';
import { ownerEntriesAfter } from './ledger.queries.ts';

const plans = sqliteQueryPlansForFile();

describe("an export's pages of the owner's entries (SQLite's plans)", () => {
  it('are read along the clients’ name index and each client’s entries index, never sorted', async () => {
    const db = plans.current.recorder;
    await ownerEntriesAfter(db, 'owner', undefined, 100);
    const end = { nameKey: 'kim min', clientId: 'client', date: '2026-11-01', id: 7 };
    await ownerEntriesAfter(db, 'owner', end, 100);
    const sent = plans.current.take();
    // The first page; then the rest of the client a page ended in, and the clients after it.
    expect(sent).toHaveLength(3);
    for (const { sql, plan } of sent) {
      // Sorting would read every entry of the owner's for each page: 41 s for 100,000 entries.
      expect(plan.join('\n'), sql).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
      expect(plan.join('\n'), sql).not.toMatch(/^SCAN/m);
      expect(plan.join('\n'), sql).toMatch(
        /SEARCH e USING INDEX entries_client \(client_id=\? AND book_id=\?/,
      );
    }
    const [first, restOfClient, laterClients] = sent.map(({ plan }) => plan.join('\n'));
    expect(first).toMatch(/SEARCH c USING (COVERING )?INDEX clients_owner_name \(book_id=\?\)/);
    expect(restOfClient).toMatch(/SEARCH c USING INDEX sqlite_autoindex_clients_1 \(id=\?\)/);
    // The rest of that client only, from its page's last day on.
    expect(restOfClient).toMatch(
      /entries_client \(client_id=\? AND book_id=\? AND occurred_on>\?\)/,
    );
    expect(laterClients).toMatch(/clients_owner_name \(book_id=\? AND \(name_key,id\)>\(\?,\?\)\)/);
  });
});
