import { setImmediate as nextTurn } from 'node:timers/promises';
import { issueFields } from '../../errors.ts';
import { utcDay } from '../../../shared/dates.ts';
import {
  clientInputSchema,
  openingDateProblems,
  importRowResultSchema,
  type ClientInput,
  type ImportRowResult,
} from '../../../shared/schemas/clients.ts';

// Small, so requests arriving during an import are not held up (docs/performance.md).
const rowsPerTurn = 100;

export type CheckedRow = { client: ClientInput } | { errors: Record<string, string> };

/** Needs no database, so it runs before the import's transaction. */
export async function checkRowsAsForm(
  rows: readonly unknown[],
  now = Date.now(),
): Promise<CheckedRow[]> {
  const today = utcDay(now);
  const checked: CheckedRow[] = [];
  for (const [row, raw] of rows.entries()) {
    if (row > 0 && row % rowsPerTurn === 0) await nextTurn();
    const parsed = clientInputSchema.safeParse(raw);
    if (parsed.success) {
      const problems = openingDateProblems(parsed.data, today);
      checked.push(
        Object.keys(problems).length > 0 ? { errors: problems } : { client: parsed.data },
      );
      continue;
    }
    // A row's problems by its top-level field; a key no client has (a misspelt column) by itself.
    const errors: Record<string, string> = {};
    for (const [field, message] of Object.entries(
      issueFields(parsed.error.issues, { whole: 'row' }),
    ))
      errors[field.split('.')[0]!] ??= message;
    checked.push({ errors });
  }
  return checked;
}

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

export async function checkImportRows(
  rows: readonly unknown[],
  options: { existing: ReadonlySet<string>; skipDuplicates: boolean },
): Promise<{ results: ImportRowResult[]; accepted: ClientInput[] }> {
  return flagDuplicates(await checkRowsAsForm(rows), options);
}

/** A slice at a time: the route's serializer would hold the event loop for every row at once. */
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
