// The restore as one command of the write path. It takes the export file as the request's bytes
// (up to 64 MiB), so on SQLite its parsing, its checks and its writing all run in the writer's
// thread: the thread that answers every other request only passes the bytes on.
import type { RestoreSummary } from '../../../shared/schemas/restore.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  notEmpty,
  previewRestore,
  restoreInto,
  type RestorePlan,
} from '../clients/restore.commands.ts';
import {
  command,
  unchanged,
  type ChangeContext,
  type Unchanged,
  type WritePath,
} from '../events/write-path.ts';
import { parseJsonBody } from './chunked-json-body.ts';
import { readExportFile } from './restore-file.ts';

/** The export file read from its bytes, refused with every problem named. */
async function readRestoreFile(body: Uint8Array): Promise<RestorePlan> {
  return readExportFile(await parseJsonBody(body));
}

/** Brings the file back into the owner's empty account, or on a preview only says what it would. */
async function restorePlan(
  context: ChangeContext,
  ownerId: string,
  plan: RestorePlan,
  dryRun: boolean,
): Promise<RestoreSummary | Unchanged<RestoreSummary>> {
  if (dryRun) return unchanged(await previewRestore(context.trx, ownerId, plan));
  return restoreInto(context, ownerId, plan);
}

const restoreFile = command(
  'transfer.restoreFile',
  async (context, ownerId, body: Uint8Array, dryRun: boolean) =>
    restorePlan(context, ownerId, await readRestoreFile(body), dryRun),
);

/** The restore, as the route calls it: a preview (`dryRun`) changes nothing. */
export async function restoreAccount(
  writes: WritePath,
  ownerId: string,
  body: Uint8Array,
  dryRun: boolean,
): Promise<RestoreSummary> {
  try {
    if (writes.commandsRunElsewhere) return await restoreFile(writes, ownerId, body, dryRun);
    // Where commands run on this thread (PostgreSQL), the file is read before the transaction
    // begins, so no connection waits in it while up to 64 MiB is parsed (in pieces) and checked.
    const plan = await readRestoreFile(body);
    return await writes.change(ownerId, (context) => restorePlan(context, ownerId, plan, dryRun));
  } catch (error) {
    // On PostgreSQL, another restore of the same file inserted these client ids first and has
    // committed (on SQLite the writer runs one restore after the other, and the second is refused
    // as the account is no longer empty).
    if (isUniqueViolation(error)) throw notEmpty();
    throw error;
  }
}
