import { sql } from 'kysely';

/** So quick reads (the session, health) always find an SQLite reader free; PostgreSQL ignores it. */
export const slowReadLaneMark = '/* slow read lane */';
export const inSlowReadLane = sql.raw(slowReadLaneMark);
