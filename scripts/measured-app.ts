// The real app on a fresh database the migrations make, for the measuring scripts: a temporary
// SQLite file, or with TEST_DIALECT=postgres a throwaway database on TEST_DATABASE_URL's server.
// Not tests/app.ts, whose template database only exists inside a test run.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig, type DatabaseConfig } from '../src/server/config.ts';
import { createThrowawayDatabase, defaultPostgresUrl } from './bench/postgres.ts';

export async function buildMeasuredApp(): Promise<{
  app: FastifyInstance;
  close(): Promise<void>;
}> {
  let database: DatabaseConfig;
  let drop: () => Promise<void>;
  if (process.env.TEST_DIALECT === 'postgres') {
    const made = await createThrowawayDatabase(
      process.env.TEST_DATABASE_URL ?? defaultPostgresUrl,
      3000,
    );
    if ('skipped' in made) throw new Error(made.skipped);
    database = { dialect: 'postgres', connectionString: made.url };
    drop = () => made.drop();
  } else {
    const file = path.join(os.tmpdir(), `balance_measure_${randomBytes(6).toString('hex')}.sqlite`);
    database = { dialect: 'sqlite', file };
    drop = async () => {
      await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(file + suffix, { force: true })));
    };
  }
  const app = await buildApp({
    config: { ...loadConfig({}), database, signUpsPerAddressPerHour: 0 },
    clientDir: null,
  });
  return {
    app,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}
