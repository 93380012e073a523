import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteQueryPlans, type QueryPlans } from '../../../../tests/query-plans.ts';
import { readClientHistory } from './events.repository.ts';

let plans: QueryPlans;

beforeAll(async () => {
  plans = await sqliteQueryPlans();
});

afterAll(async () => {
  await plans.close();
});

describe("one client's history (SQLite's plan)", () => {
  it('is read along the index of that client, never by walking its owner’s whole log', async () => {
    await readClientHistory(plans.recorder, 'owner', 'client');
    const [read] = plans.take();
    expect(read?.plan.join(' | ')).toMatch(
      /SEARCH events USING INDEX events_client \(client_id=\? AND owner_id=\?\)/,
    );
  });
});
