import { sql } from 'kysely';

/**
 * Marks a read that may take long whatever its limit (a search, or a count and sums over an
 * owner's whole list): on SQLite such reads take at most all readers but one, so the quick reads
 * every request makes (the session, the latest event id, health) always find a reader that is
 * not stuck behind them (sqlite-dialect.ts). A comment at the end of the SQL: PostgreSQL, which
 * has a connection per query, ignores it. Use with a query's `.modifyEnd(heavyRead)`.
 */
export const heavyReadMark = '/* heavy read */';
export const heavyRead = sql.raw(heavyReadMark);
