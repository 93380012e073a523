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

/** One row of an import checked with the Add Client form's schema: the client, or its errors. */
export type CheckedRow = { client: ClientInput } | { errors: Record<string, string> };

/**
 * Checks an import's rows with the same schema as the Add Client form, a few at a time. Needs no
 * database, so it runs before the import's transaction (`flagDuplicates` then runs in it).
 */
export async function checkRowsAsForm(rows: readonly unknown[]): Promise<CheckedRow[]> {
  const checked: CheckedRow[] = [];
  for (const [row, raw] of rows.entries()) {
    if (row > 0 && row % rowsPerTurn === 0) await nextTurn();
    const parsed = clientInputSchema.safeParse(raw);
    if (parsed.success) {
      checked.push({ client: parsed.data });
      continue;
    }
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues)
      errors[String(issue.path[0] ?? 'row')] ??= issue.message;
    checked.push({ errors });
  }
  return checked;
}

/** Flags the duplicates of `existing` (the owner's e-mails, folded) and of earlier rows. */
export function flagDuplicates(
  checked: readonly CheckedRow[],
  { existing, skipDuplicates }: { existing: ReadonlySet<string>; skipDuplicates: boolean },
): { results: ImportRowResult[]; accepted: ClientInput[] } {
  const seen = new Set<string>();
  const results: ImportRowResult[] = [];
  const accepted: ClientInput[] = [];
  for (const [row, checkedRow] of checked.entries()) {
    if ('errors' in checkedRow) {
      results.push({ row, status: 'invalid', errors: checkedRow.errors });
      continue;
    }
    const key = checkedRow.client.email.toLowerCase();
    const duplicateOf = existing.has(key) ? 'existing' : seen.has(key) ? 'file' : undefined;
    seen.add(key);
    if (duplicateOf) {
      results.push({ row, status: 'duplicate', duplicateOf });
      if (skipDuplicates) continue;
    } else {
      results.push({ row, status: 'ok' });
    }
    accepted.push(checkedRow.client);
  }
  return { results, accepted };
}

/** Both checks of an import's rows at once (`checkRowsAsForm`, then `flagDuplicates`). */
export async function checkImportRows(
  rows: readonly unknown[],
  options: { existing: ReadonlySet<string>; skipDuplicates: boolean },
): Promise<{ results: ImportRowResult[]; accepted: ClientInput[] }> {
  return flagDuplicates(await checkRowsAsForm(rows), options);
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
