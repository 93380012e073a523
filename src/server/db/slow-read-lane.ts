import { sql } from 'kysely';

/**
 * Sends a read that may take long whatever its limit (a search, or a count and sums over an
 * owner's whole list) to the slow lane: on SQLite such reads take at most all readers but one,
 * so the quick reads every request makes (the session, health) always find a reader that is not
 * stuck behind them (sqlite-dialect.ts). A comment at the end of the SQL: PostgreSQL, which has a
 * connection per query, ignores it. Use with a query's `.modifyEnd(inSlowReadLane)`.
 */
export const slowReadLaneMark = '/* slow read lane */';
export const inSlowReadLane = sql.raw(slowReadLaneMark);
