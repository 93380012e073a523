// How long a large import holds the database's writer at a time (decision 042): each slice
// written under the staging account, and the one step that makes them the owner's. Runs the
// import's own commands through the real app's write path on a fresh database made by the
// migrations (SQLite; PostgreSQL with TEST_DIALECT=postgres), one after another with nothing
// else running, so each time is the command's own: the writer's work, its commit and the trip
// to the writer and back. --rows goes past the route's 20,000 to size a 100,000-row restore.
//
//   node scripts/measure-import-slices.ts [--rows N] [--rounds N]   (npm run measure:import-slices)
import { parseArgs } from 'node:util';
import { clientInputSchema } from '../src/shared/schemas/clients.ts';
import {
  openImportStaging,
  publishImport,
  rowsPerSlice,
  stageImportSlice,
} from '../src/server/modules/transfer/import.commands.ts';
import type { NewEvent } from '../src/server/modules/events/write-path.ts';
import { importRows } from './bench/blocking.ts';
import { buildMeasuredApp } from './measured-app.ts';
import { joinAs } from '../tests/auth.ts';

const { values: flags } = parseArgs({
  options: { rounds: { type: 'string', default: '2' }, rows: { type: 'string', default: '20000' } },
});
const rounds = Number(flags.rounds);
const rows = Number(flags.rows);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(rows) || rows < 1)
  throw new Error('--rounds and --rows must be whole numbers above 0');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

const testApp = await buildMeasuredApp();
try {
  const { app } = testApp;
  const { userId } = await joinAs(app);
  for (let round = 0; round < rounds; round += 1) {
    const clients = importRows(rows, round).map((row) => clientInputSchema.parse(row));
    const stagingId = await app.writes.run(openImportStaging, userId);
    const sliceMs: number[] = [];
    const events: NewEvent[] = [];
    for (let start = 0; start < clients.length; start += rowsPerSlice) {
      const started = performance.now();
      const slice = clients.slice(start, start + rowsPerSlice);
      events.push(...(await app.writes.run(stageImportSlice, userId, stagingId, slice, false)));
      sliceMs.push(performance.now() - started);
    }
    const started = performance.now();
    await app.writes.run(publishImport, userId, stagingId, events, true);
    const publishMs = performance.now() - started;
    sliceMs.sort((a, b) => a - b);
    const ms = (value: number) => value.toFixed(1);
    process.stdout.write(
      `round ${round + 1} (${app.db.dialect}): ${rows} rows in ${sliceMs.length} slices of ` +
        `${rowsPerSlice}: a slice p50 ${ms(percentile(sliceMs, 50))} ms, p95 ` +
        `${ms(percentile(sliceMs, 95))} ms, max ${ms(sliceMs.at(-1) ?? 0)} ms; ` +
        `making them the owner's ${ms(publishMs)} ms\n`,
    );
  }
} finally {
  await testApp.close();
}
