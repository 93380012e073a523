import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  clientInputSchema,
  importRowResultSchema,
  type ClientInput,
  type ImportRowResult,
} from '../../../shared/schemas/clients.ts';

/**
 * Rows checked in one turn of the event loop. At 500 a turn took 2-2.5 ms (7-10 ms with a garbage
 * collection), and a request arriving meanwhile needs two or three turns to be answered: health
 * checks during an import waited 5 ms or more about twice as often as with 100
 * (docs/performance.md).
 */
const rowsPerTurn = 100;

/**
 * Checks an import's rows with the same schema as the Add Client form, a few at a time, and
 * flags the duplicates of `existing` (the owner's e-mails, folded) and of earlier rows.
 */
export async function checkImportRows(
  rows: readonly unknown[],
  { existing, skipDuplicates }: { existing: ReadonlySet<string>; skipDuplicates: boolean },
): Promise<{ results: ImportRowResult[]; accepted: ClientInput[] }> {
  const seen = new Set<string>();
  const results: ImportRowResult[] = [];
  const accepted: ClientInput[] = [];
  for (const [row, raw] of rows.entries()) {
    if (row > 0 && row % rowsPerTurn === 0) await nextTurn();
    const parsed = clientInputSchema.safeParse(raw);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues)
        errors[String(issue.path[0] ?? 'row')] ??= issue.message;
      results.push({ row, status: 'invalid', errors });
      continue;
    }
    const key = parsed.data.email.toLowerCase();
    const duplicateOf = existing.has(key) ? 'existing' : seen.has(key) ? 'file' : undefined;
    seen.add(key);
    if (duplicateOf) {
      results.push({ row, status: 'duplicate', duplicateOf });
      if (skipDuplicates) continue;
    } else {
      results.push({ row, status: 'ok' });
    }
    accepted.push(parsed.data);
  }
  return { results, accepted };
}

/**
 * The answer's rows, checked against their schema and turned into JSON a slice at a time: the
 * route's serializer would check all 20,000 in one piece, holding the event loop for 12-30 ms,
 * and `JSON.stringify` of them all took another 3-5 ms.
 */
export async function importResultsJson(results: readonly ImportRowResult[]): Promise<string> {
  const slices: string[] = [];
  for (let start = 0; start < results.length; start += rowsPerTurn) {
    if (start > 0) await nextTurn();
    const slice = results.slice(start, start + rowsPerTurn);
    for (const result of slice) importRowResultSchema.parse(result);
    slices.push(JSON.stringify(slice).slice(1, -1));
  }
  return `[${slices.join(',')}]`;
}
