import { describe, expect, it } from 'vitest';
import { sqliteQueryPlansForFile } from '../../../../tests/query-plans.ts';
import { readClientHistory } from './events.queries.ts';

const plans = sqliteQueryPlansForFile();

describe("one client's history (SQLite's plan)", () => {
  it('is read along the index of that client, never by walking its owner’s whole log', async () => {
    await readClientHistory(plans.current.recorder, 'owner', 'client');
    const [read] = plans.current.take();
    expect(read?.plan.join(' | ')).toMatch(
      /SEARCH events USING INDEX events_client \(client_id=\? AND book_id=\?\)/,
    );
  });
});
