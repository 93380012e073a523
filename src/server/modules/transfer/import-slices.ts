// A large import's rows written in slices, each its own short transaction in the owner's turn,
// under a staging account nobody reads; then made the owner's in one change of the write path
// (decision 042). Between two slices, other owners' writes have SQLite's writer.
import type { FastifyInstance } from 'fastify';
import {
  discardImportStaging,
  openImportStaging,
  publishImport,
  rowsPerSlice,
  stageImportSlice,
  type ImportToStage,
} from './import.commands.ts';
import { abandonedStagings } from './staging.queries.ts';
import type { NewEvent } from '../events/write-path.ts';

/** A staging account this old was left by a crash or a lost process: its import is over. */
const abandonedAfterMs = 60 * 60_000;

export async function importInSlices(
  app: Pick<FastifyInstance, 'writes' | 'db' | 'log'>,
  bookId: string,
  { rows, zeroBalances, skipDuplicates }: ImportToStage,
): Promise<void> {
  await discardAbandonedStagings(app, bookId, Date.now() - abandonedAfterMs);
  const stagingId = await app.writes.run(openImportStaging, bookId);
  try {
    const events: NewEvent[] = [];
    for (let start = 0; start < rows.length; start += rowsPerSlice) {
      const slice = rows.slice(start, start + rowsPerSlice);
      events.push(
        ...(await app.writes.run(stageImportSlice, bookId, stagingId, slice, zeroBalances)),
      );
    }
    await app.writes.run(publishImport, bookId, stagingId, events, skipDuplicates);
  } catch (error) {
    await discardStaging(app, bookId, stagingId).catch((discardError: unknown) => {
      // Left for the next import's sweep (above); nobody sees it meanwhile.
      app.log.error({ err: discardError }, 'a refused import’s staged rows were not thrown away');
    });
    throw error;
  }
}

async function discardStaging(
  app: Pick<FastifyInstance, 'writes'>,
  bookId: string,
  stagingId: string,
): Promise<void> {
  while (!(await app.writes.run(discardImportStaging, bookId, stagingId))) {
    // One slice a turn of the owner's, like the writing.
  }
}

/** Throws away, in the calling owner's turns, what imports started before `startedBefore` left. */
export async function discardAbandonedStagings(
  app: Pick<FastifyInstance, 'writes' | 'db'>,
  bookId: string,
  startedBefore: number,
): Promise<number> {
  const abandoned = await abandonedStagings(app.db.kysely, startedBefore);
  for (const { id } of abandoned) await discardStaging(app, bookId, id);
  return abandoned.length;
}
