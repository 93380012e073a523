// `npm test`: every check, in order, each step's duration said as it ends and all of them at
// the end, so a slow CI run shows where its time went (issue 54). Stops at the first failure.
//
// Steps in one group run side by side: only those that each keep one core busy (the type
// checker, the linter, the export and dependency checks) on this 2-core machine; the test
// runners use both cores themselves and run alone.
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  args: string[];
}

const npmRun = (script: string, ...extra: string[]): Step => ({
  name: [script, ...extra].join(' '),
  args: ['run', script, ...(extra.length > 0 ? ['--', ...extra] : [])],
});

const groups: Step[][] = [
  [npmRun('typecheck'), npmRun('lint')],
  [npmRun('check:exports'), npmRun('check:dependencies')],
  [npmRun('test:unit')],
  [npmRun('test:e2e')],
  [npmRun('test:crash', '--kills', '10')],
  [npmRun('test:load', '--quick')],
];

interface Outcome {
  name: string;
  seconds: number;
  code: number;
  output: string;
}

/** Runs one step; alone, its output streams as it comes; beside another, it is kept and printed whole. */
function run(step: Step, streamed: boolean): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', step.args, {
      stdio: streamed ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      resolve({
        name: step.name,
        seconds: (performance.now() - started) / 1000,
        code: code ?? (signal ? 1 : 0),
        output: Buffer.concat(chunks).toString('utf8'),
      });
    });
  });
}

const outcomes: Outcome[] = [];
const totalStarted = performance.now();
let failed: Outcome | undefined;

for (const group of groups) {
  const results = await Promise.all(group.map((step) => run(step, group.length === 1)));
  for (const result of results) {
    if (group.length > 1) process.stdout.write(result.output);
    process.stdout.write(
      `[balance] step "${result.name}" ${result.code === 0 ? 'passed' : 'FAILED'} in ${result.seconds.toFixed(1)} s\n`,
    );
    outcomes.push(result);
  }
  failed = results.find((result) => result.code !== 0);
  if (failed) break;
}

process.stdout.write('\n[balance] npm test, step by step:\n');
for (const outcome of outcomes) {
  const status = outcome.code === 0 ? 'ok    ' : 'FAILED';
  process.stdout.write(
    `  ${status} ${outcome.seconds.toFixed(1).padStart(7)} s  ${outcome.name}\n`,
  );
}
process.stdout.write(
  `  total  ${((performance.now() - totalStarted) / 1000).toFixed(1).padStart(7)} s\n`,
);
if (failed) process.exit(failed.code || 1);
