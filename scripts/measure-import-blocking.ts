// How long one 20,000-row import holds the request thread: the longest stall of the event loop
// (monitorEventLoopDelay, 1 ms resolution) while the real app answers the import, on a fresh
// SQLite database made by the migrations. Prints each round; the bench's health probes during
// imports measure the same effect from outside, with more noise on a shared machine.
//
//   node scripts/measure-import-blocking.ts [--rounds N] [--rows N]   (npm run measure:import-blocking)
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { buildMeasuredApp } from './measured-app.ts';
import { joinAs } from '../tests/auth.ts';
import { importBody } from './bench/blocking.ts';

const { values: flags } = parseArgs({
  options: { rounds: { type: 'string', default: '4' }, rows: { type: 'string', default: '20000' } },
});
const rounds = Number(flags.rounds);
const rows = Number(flags.rows);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(rows) || rows < 1 || rows > 20000)
  throw new Error('--rounds must be a whole number above 0, --rows one from 1 to 20000');

const testApp = await buildMeasuredApp();
try {
  const { cookie } = await joinAs(testApp.app);
  for (let round = 0; round < rounds; round += 1) {
    const payload = importBody(rows, round);
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/clients/import',
      headers: { cookie, 'content-type': 'application/json' },
      payload,
    });
    delay.disable();
    if (response.statusCode !== 200) throw new Error(`the import answered ${response.statusCode}`);
    const ms = (nanoseconds: number) => (nanoseconds / 1e6).toFixed(1);
    process.stdout.write(
      `round ${round + 1}: ${rows} rows in ${Math.round(performance.now() - started)} ms; ` +
        `longest stall ${ms(delay.max)} ms, p99 ${ms(delay.percentile(99))} ms\n`,
    );
  }
} finally {
  await testApp.close();
}
