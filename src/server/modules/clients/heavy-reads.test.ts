import { describe, expect, it } from 'vitest';
import { sqliteQueryPlansForFile } from '../../../../tests/query-plans.ts';
import { heavyReadMark } from '../../db/heavy-read.ts';
import { ownerEmailKeys } from './clients.repository.ts';

const plans = sqliteQueryPlansForFile();

describe('reads over all of an owner’s clients', () => {
  it('the import’s read of every e-mail is a heavy read, so it never holds up a quick one', async () => {
    // With 40,000 clients it took 40 ms on a reader, and a health check sent to the same reader
    // waited behind it (docs/performance.md).
    await ownerEmailKeys(plans.current.recorder, 'owner');
    const [read] = plans.current.take();
    expect(read?.sql).toMatch(/^select "email" from "clients"/);
    expect(read?.sql.endsWith(heavyReadMark)).toBe(true);
  });
});
