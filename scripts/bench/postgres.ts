import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const defaultPostgresUrl = 'postgres://postgres@127.0.0.1:5432/test';

export interface ThrowawayDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * Creates `bench_<random>` on the server at `adminUrl`, or says why it could not (unreachable
 * within `timeoutMs`, no right to create databases). Only 127.0.0.1 is ever asked.
 */
export async function createThrowawayDatabase(
  adminUrl: string,
  timeoutMs: number,
): Promise<ThrowawayDatabase | { skipped: string }> {
  const parsed = new URL(adminUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    return { skipped: `${parsed.hostname} is not this machine; the bench talks to 127.0.0.1 only` };
  }
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: timeoutMs });
  admin.on('error', () => {});
  try {
    await admin.connect();
  } catch (error) {
    await admin.end().catch(() => {});
    return { skipped: `PostgreSQL not reachable at ${safeUrl(adminUrl)}: ${String(error)}` };
  }
  const name = `bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin.query(`create database ${name}`);
  } catch (error) {
    await admin.end().catch(() => {});
    return { skipped: `could not create a database: ${String(error)}` };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end().catch(() => {});
      }
    },
  };
}

/** The URL without its password, for messages. */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}
