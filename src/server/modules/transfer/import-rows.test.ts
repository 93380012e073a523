import { describe, expect, it } from 'vitest';
import type { ImportRowResult } from '../../../shared/schemas/clients.ts';
import { checkImportRows, importResultsJson } from './import-rows.ts';

const row = (n: number) => ({
  firstName: 'Imported',
  lastName: `Client ${n}`,
  email: `imported.${n}@example.com`,
  phone: '+1 555 0100100',
  currency: 'USD',
  balance: n,
});

/**
 * Rows that count how many of them have been read, and how many had been when other waiting
 * work (a request that arrived meanwhile) got its turn.
 */
function countedRows(count: number) {
  const seen = { rows: 0, whenOtherWorkRan: null as number | null };
  const rows = Array.from({ length: count }, (_, n) => {
    const plain = row(n);
    let counted = false;
    return {
      ...plain,
      get firstName() {
        if (!counted) seen.rows += 1;
        counted = true;
        return plain.firstName;
      },
    };
  });
  setImmediate(() => (seen.whenOtherWorkRan = seen.rows));
  return { rows, seen };
}

describe("an import's rows", () => {
  it('name a key no client has (a misspelt column) instead of dropping what it held', async () => {
    const kept = await checkImportRows([{ ...row(1), emial: 'typo@example.com' }], {
      existing: new Set(),
      skipDuplicates: false,
    });
    expect(kept.results).toEqual([
      {
        row: 0,
        status: 'invalid',
        errors: { emial: 'This field is not one this request takes.' },
      },
    ]);
    expect(kept.accepted).toEqual([]);
  });

  it('are checked with the form’s rules, and duplicates of the list and of the file flagged', async () => {
    const rows = [row(1), { ...row(2), email: 'not an e-mail' }, row(3), row(1), row(4)];
    const existing = new Set(['imported.3@example.com']);
    const kept = await checkImportRows(rows, { existing, skipDuplicates: false });
    // An invalid row says which field is wrong (the form's own message, tested with the form).
    const statuses = kept.results.map((result) =>
      result.status === 'invalid'
        ? { ...result, errors: Object.keys(result.errors ?? {}) }
        : result,
    );
    expect(statuses).toEqual([
      { row: 0, status: 'ok' },
      { row: 1, status: 'invalid', errors: ['email'] },
      { row: 2, status: 'duplicate', duplicateOf: 'existing' },
      { row: 3, status: 'duplicate', duplicateOf: 'file' },
      { row: 4, status: 'ok' },
    ]);
    expect(kept.accepted.map((client) => client.lastName)).toEqual([
      'Client 1',
      'Client 3',
      'Client 1',
      'Client 4',
    ]);
    const skipped = await checkImportRows(rows, { existing, skipDuplicates: true });
    expect(skipped.results).toEqual(kept.results);
    expect(skipped.accepted.map((client) => client.lastName)).toEqual(['Client 1', 'Client 4']);
  });

  it('are checked at most 100 a turn, so a request arriving meanwhile waits behind no more', async () => {
    const { rows, seen } = countedRows(1000);
    const { accepted } = await checkImportRows(rows, { existing: new Set(), skipDuplicates: true });
    expect(accepted).toHaveLength(1000);
    expect(seen.rows).toBe(1000);
    expect(seen.whenOtherWorkRan).not.toBeNull();
    expect(seen.whenOtherWorkRan).toBeLessThanOrEqual(100);
  });

  it('have their answers checked and written at most 100 a turn too', async () => {
    const seen = { results: 0, whenOtherWorkRan: null as number | null };
    const results = Array.from({ length: 1000 }, (_, n): ImportRowResult => {
      let counted = false;
      return {
        row: n,
        get status() {
          if (!counted) seen.results += 1;
          counted = true;
          return 'ok' as const;
        },
      };
    });
    setImmediate(() => (seen.whenOtherWorkRan = seen.results));
    const written = await importResultsJson(results);
    expect(JSON.parse(written)).toHaveLength(1000);
    expect(seen.results).toBe(1000);
    expect(seen.whenOtherWorkRan).not.toBeNull();
    expect(seen.whenOtherWorkRan).toBeLessThanOrEqual(100);
  });

  it('writes the answers as JSON.stringify would, whatever their number', async () => {
    const results: ImportRowResult[] = Array.from({ length: 250 }, (_, row) =>
      row % 3 === 0
        ? { row, status: 'invalid', errors: { email: 'Enter an e-mail address.' } }
        : row % 3 === 1
          ? { row, status: 'duplicate', duplicateOf: 'file' }
          : { row, status: 'ok' },
    );
    for (const count of [0, 1, 99, 100, 101, 250]) {
      expect(await importResultsJson(results.slice(0, count))).toBe(
        JSON.stringify(results.slice(0, count)),
      );
    }
  });

  it('refuses an answer that does not match its schema', async () => {
    const wrong = [{ row: 0, status: 'maybe' }] as unknown as ImportRowResult[];
    await expect(importResultsJson(wrong)).rejects.toThrow();
  });
});
