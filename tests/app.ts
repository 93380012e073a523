import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import { loadConfig, type Config, type PasswordHashParams } from '../src/server/config.ts';
import { createMigratedTestDatabase, type TestDatabase } from './db.ts';

/**
 * argon2id at its smallest cost: the suite signs up hundreds of owners, and at the production
 * cost their hashing was most of its time. The production parameters are tested on their own
 * (auth.routes.test.ts, config.test.ts).
 */
export const testPasswordHashing: PasswordHashParams = { memory: 8, passes: 1, parallelism: 1 };

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The real app on a fresh database made by the real migrations (a copy of the run's template), for app.inject(). */
export async function buildTestApp(
  options: { config?: Partial<Config>; clientDir?: string | null } = {},
): Promise<TestApp> {
  const database = await createMigratedTestDatabase();
  // The tests sign up many owners from one address; the limit's own tests set it.
  const config: Config = {
    ...loadConfig({}),
    database: database.config,
    signUpsPerAddressPerHour: 0,
    passwordHashing: testPasswordHashing,
    ...options.config,
  };
  const app = await buildApp({ config, clientDir: options.clientDir ?? null });
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
