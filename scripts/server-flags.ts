// How `npm start` runs the server (package.json says the same): the end-to-end tests and the
// bench start the production bundle with these Node flags too, so they measure what it serves.

/**
 * One V8 helper thread, not Node's four. The helpers run the garbage collection of every thread
 * of the process, the SQLite threads' included: while the writer took in a 20,000-row import,
 * four of them took turns on the second core and the request thread waited up to 9.5 ms for a
 * core (`perf sched`), which its health answers showed (docs/performance.md).
 */
export const serverNodeFlags = ['--v8-pool-size=1'] as const;
