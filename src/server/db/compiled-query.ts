import type { Compilable, CompiledQuery, DialectAdapter, Kysely, QueryResult } from 'kysely';
import type { Database } from './database.ts';

type Executor = Kysely<Database>;

/** An argument given as an object of column values, for `.values(row)`. */
type RowArgument = Record<string, unknown>;

/** Where a compiled parameter's value comes from on each run: an argument, or a key of one. */
interface Slot {
  index: number;
  key: string | null;
}

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** Per compiled parameter; null where the query fixed the value itself. */
  slots: (Slot | null)[];
  /** The keys each row argument was compiled with, by the argument's index. */
  rowKeys: Map<number, string[]>;
}

/**
 * Stands in for an argument, or a key of a row argument, while the query is built once; no real
 * value looks like it.
 */
const placeholder = (name: string) => `\u0000Compiled Query Argument ${name}\u0000`;

// By prototype, so that a Date, a Buffer or an array stays one bound value.
const isRowArgument = (value: unknown): value is RowArgument => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/**
 * A query that Kysely builds and compiles once per database and then runs with new arguments.
 * Building a query is most of Kysely's cost on SQLite (about 11 µs of a 17 µs session lookup);
 * the queries that every signed-in request runs, and those of a balance change and of a new
 * ledger entry, use this instead.
 *
 * Kept by the executor's adapter, which Kysely makes once per database object (on SQLite, one on
 * the request thread and one in the writer thread) and which each of its transactions shares: a
 * transaction is a new Kysely object every time, and the write path's commands run in one. (A
 * plugin would share the adapter but change the SQL: the app's databases have none.)
 *
 * `build` must pass each argument straight through as a bound value (no string or number work
 * on it, and no choice made on its value), so that it can be found again among the compiled
 * parameters; a query that does not is refused the first time it runs. A plain object (a row
 * for `.values(row)`) is not bound whole: `build` gets an object of the same keys, and each
 * key's value must be passed straight through likewise. The compiled SQL names those columns,
 * so every later call must give exactly the same keys, each with a value (where Kysely would
 * have left out a column whose value is undefined); a call that does not is refused. A row's
 * values are bound as they are: one that Kysely would have written into the SQL (a `sql`
 * fragment, a subquery) has no place in it.
 */
export function compiledQuery<Args extends unknown[], Row>(
  build: (db: Executor, ...args: Args) => Compilable<Row>,
): (db: Executor, ...args: Args) => Promise<QueryResult<Row>> {
  const compiledFor = new WeakMap<DialectAdapter, Compiled<Row>>();
  return async (db, ...args) => {
    const { adapter } = db.getExecutor();
    let compiled = compiledFor.get(adapter);
    if (!compiled) {
      compiled = compile(build, db, args);
      compiledFor.set(adapter, compiled);
    }
    const { query, slots, rowKeys } = compiled;
    if (rowKeys.size > 0) {
      for (const [index, keys] of rowKeys) checkRowKeys(args[index], index, keys);
    }
    const parameters = query.parameters.map((fixed, position) => {
      const slot = slots[position];
      if (!slot) return fixed;
      const argument = args[slot.index];
      return slot.key === null ? argument : (argument as RowArgument)[slot.key];
    });
    return db.executeQuery<Row>({ ...query, parameters });
  };
}

function compile<Args extends unknown[], Row>(
  build: (db: Executor, ...args: Args) => Compilable<Row>,
  db: Executor,
  args: Args,
): Compiled<Row> {
  const slotOf = new Map<string, Slot>();
  const standIn = (index: number, key: string | null) => {
    const name = placeholder(key === null ? `${index}` : `${index}.${key}`);
    slotOf.set(name, { index, key });
    return name;
  };
  const rowKeys = new Map<number, string[]>();
  const standIns = args.map((argument, index) => {
    if (!isRowArgument(argument)) return standIn(index, null);
    const keys = Object.keys(argument);
    rowKeys.set(index, keys);
    return Object.fromEntries(keys.map((key) => [key, standIn(index, key)]));
  });
  const query = build(db, ...(standIns as Args)).compile();
  const slots = query.parameters.map((parameter) => slotOf.get(parameter as string) ?? null);
  const bound = new Set(slots);
  for (const slot of slotOf.values()) {
    if (bound.has(slot)) continue;
    throw new Error(
      slot.key === null
        ? `compiledQuery: an argument is not a bound value in ${query.sql}`
        : `compiledQuery: key "${slot.key}" of argument ${slot.index} is not a bound value ` +
            `in ${query.sql}`,
    );
  }
  return { query, slots, rowKeys };
}

function checkRowKeys(argument: unknown, index: number, keys: readonly string[]): void {
  if (
    isRowArgument(argument) &&
    Object.keys(argument).length === keys.length &&
    keys.every((key) => argument[key] !== undefined)
  ) {
    return;
  }
  const given = isRowArgument(argument)
    ? Object.keys(argument).filter((key) => argument[key] !== undefined)
    : [];
  const missing = keys.filter((key) => !given.includes(key));
  const extra = given.filter((key) => !keys.includes(key));
  throw new Error(
    `compiledQuery: argument ${index} must have the keys it was compiled with, each with a value` +
      (missing.length > 0 ? `; without a value: ${missing.join(', ')}` : '') +
      (extra.length > 0 ? `; not compiled: ${extra.join(', ')}` : ''),
  );
}
