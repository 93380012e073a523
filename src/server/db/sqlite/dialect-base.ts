// What SQLite's two Kysely dialects share: the one the request thread uses (dialect.ts), which
// sends each query to a thread, and the one inside the writer thread (commands.ts), which runs
// a command's queries on the writer's own connection.
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { QueryOutcome } from './protocol.ts';

export abstract class SqliteDialectBase implements Dialect {
  abstract createDriver(): Driver;

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

export abstract class SqliteConnectionBase implements DatabaseConnection {
  abstract executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>>;

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on SQLite: read in keyset pages instead');
  }
}

export function toQueryResult<R>(outcome: QueryOutcome | undefined): QueryResult<R> {
  if (!outcome) return { rows: [] };
  const { rows, changes, lastInsertRowid } = outcome;
  if (changes === undefined) return { rows: rows as R[] };
  return {
    rows: rows as R[],
    numAffectedRows: BigInt(changes),
    insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid),
  };
}
