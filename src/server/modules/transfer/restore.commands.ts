// Bytes in, so on SQLite parsing, checks and writing all run in the writer's thread.
import type { RestoreSummary } from '../../../shared/schemas/restore.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { notEmpty, previewRestore, restoreInto } from './restore-plan.ts';
import { readingCommand, unchanged, type Unchanged } from '../events/write-path.ts';
import { parseJsonBody } from './chunked-json-body.ts';
import { readExportFile } from './restore-file.ts';

async function readRestore(body: Uint8Array, dryRun: boolean) {
  return { plan: readExportFile(await parseJsonBody(body)), dryRun };
}

export const restoreFile = readingCommand(
  readRestore,
  async (context, bookId, { plan, dryRun }): Promise<RestoreSummary | Unchanged<RestoreSummary>> =>
    dryRun
      ? unchanged(await previewRestore(context.trx, bookId, plan))
      : restoreInto(context, bookId, plan),
);

export async function notEmptyOnTakenIds(
  restore: Promise<RestoreSummary>,
): Promise<RestoreSummary> {
  try {
    return await restore;
  } catch (error) {
    // PostgreSQL only: another restore of the same file took these ids first and committed.
    if (isUniqueViolation(error)) throw notEmpty();
    throw error;
  }
}
