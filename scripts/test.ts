// `npm test`: every check, in order, each step's duration said as it ends and all of them at
// the end, so a slow CI run shows where its time went (issue 54). Stops at the first failure.
//
// A group's lanes run side by side, each lane's steps one after another. Only steps that each
// keep at most one core busy share a group on this 2-core machine: the linter in one lane, and
// in the other the type checker, the export and dependency checks, the browser's install (on a
// fresh machine, a package download) and the build of the app the end-to-end tests serve. The
// end-to-end runner runs alone: beside the unit tests (tried once, in a fresh clone) the two took
// longer than one after the other, and three tests failed on time alone. The unit tests kept the 2 cores busy
// 1.35 of 2 on average (each file waits on its database and its start): beside them run the
// short load test and the benchmark's smoke check, each a server and a client for some seconds
// that check answers, not speed (decision 045).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/** Lanes side by side; the first lane's output streams as it comes, the others' when each step ends. */
type Group = Lane[];

const groups: Group[] = [
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
  [
    [npmRun('test:unit')],
    [
      npmRun('test:load', '--quick'),
      // Needs the build of the first group: it starts the bundled server.
      npmRun('bench:smoke'),
    ],
  ],
  // `npm run test:e2e` without its build and browser check, done in the first group.
  [[{ name: 'test:e2e (playwright test)', command: 'npx', args: ['playwright', 'test'] }]],
  // Alone: each server it kills lives under 0.9 s and must get writes done in it. Beside the unit
  // tests on a busy machine, 6 writes in 10 lives were acknowledged ("too few to tell").
  [[npmRun('test:crash', '--kills', '10')]],
];

interface Outcome {
  name: string;
  seconds: number;
  code: number;
  output: string;
}

/**
 * CPU seconds of this process's finished children and theirs (Linux's cutime + cstime), so a
 * step's figure says how much of the machine it took, not only how long it waited on a busy one.
 * Steps that share a group are counted together, as one figure for the group.
 */
function childCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // The fields after the command's name, which is in brackets and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime are fields 16 and 17 of the whole line, 14 and 15 after the name.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs one step; streamed, its output comes as it comes; otherwise it is kept and printed whole. */
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
const cpu: { names: string[]; seconds: number }[] = [];
const totalStarted = performance.now();
const totalCpuStarted = childCpuSeconds();
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
  const cpuStarted = childCpuSeconds();
  const results = (
    await Promise.all(group.map((lane, index) => runLane(lane, index === 0)))
  ).flat();
  const cpuEnded = childCpuSeconds();
  if (cpuStarted !== undefined && cpuEnded !== undefined)
    cpu.push({ names: results.map((result) => result.name), seconds: cpuEnded - cpuStarted });
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
if (cpu.length > 0 && totalCpuStarted !== undefined) {
  process.stdout.write('[balance] CPU time (both cores together), group by group:\n');
  for (const group of cpu)
    process.stdout.write(
      `  ${group.seconds.toFixed(1).padStart(7)} s  ${group.names.join(' + ')}\n`,
    );
  const total = (childCpuSeconds() ?? totalCpuStarted) - totalCpuStarted;
  process.stdout.write(`  total  ${total.toFixed(1).padStart(7)} s\n`);
}
if (failed) process.exit(failed.code || 1);
