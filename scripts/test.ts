// `npm test`: every check, in order, each step's duration said as it ends and all of them at
// the end, so a slow CI run shows where its time went (issue 54). Stops at the first failure.
//
// A group's lanes run side by side, each lane's steps one after another. Only steps that each
// keep at most one core busy share a group on this 2-core machine: the linter in one lane, and
// in the other the type checker, the export and dependency checks, the browser's install (on a
// fresh machine, a package download) and the build of the app the end-to-end tests serve. The
// test runners use both cores themselves and run alone.
import { spawn } from 'node:child_process';

interface Step {
  name: string;
  command: string;
  args: string[];
}

const npmRun = (script: string, ...extra: string[]): Step => ({
  name: [script, ...extra].join(' '),
  command: 'npm',
  args: ['run', script, ...(extra.length > 0 ? ['--', ...extra] : [])],
});

/** A script of ours, run by the Node that runs this one (npm's Node 24). */
const nodeScript = (file: string): Step => ({
  name: file,
  command: process.execPath,
  args: [file],
});

type Lane = Step[];

const groups: Lane[][] = [
  [
    [
      npmRun('typecheck'),
      npmRun('check:exports'),
      npmRun('check:dependencies'),
      nodeScript('scripts/ensure-browser.ts'),
      npmRun('build'),
    ],
    [npmRun('lint')],
  ],
  [[npmRun('test:unit')]],
  // `npm run test:e2e` without its build and browser check, done in the first group.
  [[{ name: 'test:e2e (playwright test)', command: 'npx', args: ['playwright', 'test'] }]],
  [[npmRun('test:crash', '--kills', '10')]],
  [[npmRun('test:load', '--quick')]],
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
    const child = spawn(step.command, step.args, {
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

/** Runs a lane's steps one after another, stopping at the first that fails. */
async function runLane(lane: Lane, streamed: boolean): Promise<Outcome[]> {
  const results: Outcome[] = [];
  for (const step of lane) {
    const result = await run(step, streamed);
    results.push(result);
    if (!streamed) process.stdout.write(result.output);
    process.stdout.write(
      `[balance] step "${result.name}" ${result.code === 0 ? 'passed' : 'FAILED'} in ${result.seconds.toFixed(1)} s\n`,
    );
    if (result.code !== 0) break;
  }
  return results;
}

for (const group of groups) {
  const results = (await Promise.all(group.map((lane) => runLane(lane, group.length === 1)))).flat();
  outcomes.push(...results);
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
