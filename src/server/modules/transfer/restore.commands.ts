// The restore as one command of the write path. It takes the export file as the request's bytes
// (up to 64 MiB), so on SQLite its parsing, its checks and its writing all run in the writer's
// thread: the thread that answers every other request only passes the bytes on.
import type { RestoreSummary } from '../../../shared/schemas/restore.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { notEmpty, previewRestore, restoreInto } from './restore-plan.ts';
import { readingCommand, unchanged, type Unchanged } from '../events/write-path.ts';
import { parseJsonBody } from './chunked-json-body.ts';
import { readExportFile } from './restore-file.ts';

/** The export file, read from its bytes and checked, and whether only a preview is asked. */
async function readRestore(body: Uint8Array, dryRun: boolean) {
  return { plan: readExportFile(await parseJsonBody(body)), dryRun };
}

/**
 * Brings the file back into the owner's empty account, or on a preview (`dryRun`) only says what
 * it would bring back, changing nothing.
 */
export const restoreFile = readingCommand(
  'transfer.restoreFile',
  readRestore,
  async (
    context,
    ownerId,
    { plan, dryRun },
  ): Promise<RestoreSummary | Unchanged<RestoreSummary>> =>
    dryRun
      ? unchanged(await previewRestore(context.trx, ownerId, plan))
      : restoreInto(context, ownerId, plan),
);

/** The restore's answer, with a conflict over its client ids told as the account not being empty. */
export async function notEmptyOnTakenIds(
  restore: Promise<RestoreSummary>,
): Promise<RestoreSummary> {
  try {
    return await restore;
  } catch (error) {
    // On PostgreSQL, another restore of the same file inserted these client ids first and has
    // committed (on SQLite the writer runs one restore after the other, and the second is refused
    // as the account is no longer empty).
    if (isUniqueViolation(error)) throw notEmpty();
    throw error;
  }
}
