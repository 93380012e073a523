// Bytes in, so on SQLite all an import costs runs in the writer's thread; only what needs the
// owner's clients runs in the transaction (decision 023). An import of more rows than one slice
// is written in slices under a staging account and made the owner's at the end (decision 042).
import {
  importBodySchema,
  type ClientInput,
  type ImportResult,
} from '../../../shared/schemas/clients.ts';
import { AppError, invalidBody } from '../../errors.ts';
import {
  addImportedClients,
  discardStagedClients,
  publishStagedClients,
  stageImportedClients,
} from '../clients/clients.commands.ts';
import { ownerEmailKeys } from '../clients/clients.queries.ts';
import {
  command,
  readingCommand,
  stagingCommand,
  unchanged,
  type NewEvent,
  type Unchanged,
} from '../events/write-path.ts';
import { readPreferences } from '../settings/settings.queries.ts';
import { parseJsonBody } from './chunked-json-body.ts';
import { checkRowsAsForm, flagDuplicates, importResultsJson } from './import-rows.ts';
import { deleteStaging, insertStaging } from './staging.repository.ts';
import { isStagingOf } from './staging.queries.ts';

/** Rows a slice writes: about 20-50 ms of SQLite's writer here (decision 042). */
export const rowsPerSlice = 250;

interface ImportAnswer extends Omit<ImportResult, 'results'> {
  resultsJson: string;
}

/** What is left to write in slices (import-slices.ts); nothing is written yet. */
export interface ImportToStage {
  rows: ClientInput[];
  zeroBalances: boolean;
  skipDuplicates: boolean;
}

async function readImportBody(bytes: Uint8Array) {
  const parsed = importBodySchema.safeParse(await parseJsonBody(bytes));
  if (parsed.success) return { ...parsed.data, rows: await checkRowsAsForm(parsed.data.rows) };
  throw invalidBody(parsed.error.issues);
}

type ImportPlan = ImportAnswer & { toStage?: ImportToStage };

/** Checks the file; writes it whole if it fits in one slice, or answers the rows to stage. */
export const importFile = readingCommand(
  readImportBody,
  async (
    context,
    bookId,
    { rows, dryRun, skipDuplicates },
  ): Promise<ImportPlan | Unchanged<ImportPlan>> => {
    const existing = await ownerEmailKeys(context.trx, bookId);
    const { results, accepted } = flagDuplicates(rows, { existing, skipDuplicates });
    const resultsJson = await importResultsJson(results);
    if (dryRun || accepted.length <= rowsPerSlice) {
      if (!dryRun && accepted.length > 0) {
        const { balancesZeroed } = await addImportedClients(context, bookId, accepted);
        return { resultsJson, imported: accepted.length, balancesZeroed };
      }
      const { disableBalanceOnAdd } = await readPreferences(context.trx, bookId);
      return unchanged({ resultsJson, imported: 0, balancesZeroed: disableBalanceOnAdd });
    }
    const { disableBalanceOnAdd } = await readPreferences(context.trx, bookId);
    return unchanged({
      resultsJson,
      imported: accepted.length,
      balancesZeroed: disableBalanceOnAdd,
      toStage: { rows: accepted, zeroBalances: disableBalanceOnAdd, skipDuplicates },
    });
  },
);

const stagingGone = () =>
  new AppError(
    409,
    'conflict',
    'The import was stopped before it was complete; nothing was imported',
  );

/** A staging account for one large import of the owner's; answers its id. */
export const openImportStaging = stagingCommand(async ({ trx, now }, bookId) =>
  insertStaging(trx, bookId, now),
);

/** One slice of the rows, under the staging account; answers the events publishing records. */
export const stageImportSlice = stagingCommand(
  async (
    { trx, now },
    bookId,
    stagingId: string,
    rows: ClientInput[],
    zeroBalances: boolean,
  ): Promise<NewEvent[]> => {
    if (!(await isStagingOf(trx, bookId, stagingId))) throw stagingGone();
    return stageImportedClients(trx, stagingId, rows, { zeroBalances, now });
  },
);

/**
 * The one change of the import on the write path: every staged row made the owner's, and every
 * client's `imported` event, in one transaction; the live feed hears of it once, after it.
 */
export const publishImport = command(
  async (
    { trx, record, actor },
    bookId,
    stagingId: string,
    events: NewEvent[],
    skipDuplicates: boolean,
  ): Promise<void> => {
    if (!(await isStagingOf(trx, bookId, stagingId))) throw stagingGone();
    if (skipDuplicates) {
      // A client added meanwhile with an e-mail of the file would be skipped had it come first.
      const existing = await ownerEmailKeys(trx, bookId);
      if (events.some(({ after }) => after !== null && existing.has(after.email.toLowerCase()))) {
        throw new AppError(
          409,
          'conflict',
          'A client with an e-mail of the file was added during the import; nothing was imported. Import the file again.',
        );
      }
    }
    await publishStagedClients(trx, stagingId, bookId, actor?.userId ?? null);
    await deleteStaging(trx, stagingId);
    await record(events);
  },
);

/**
 * Throws away a slice of what a staging account holds, and the account once it is empty; answers
 * whether it is gone. Sliced too, so a refused import of 100,000 rows does not hold the writer.
 */
export const discardImportStaging = stagingCommand(
  async ({ trx }, _bookId, stagingId: string): Promise<boolean> => {
    // Any owner's: a staging account a crash left behind may outlive its owner.
    if (!(await isStagingOf(trx, null, stagingId))) return true;
    if ((await discardStagedClients(trx, stagingId, rowsPerSlice)) === rowsPerSlice) return false;
    await deleteStaging(trx, stagingId);
    return true;
  },
);
