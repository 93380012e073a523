// What `npm run backup` and `npm run restore` share: a plain message and exit 1 on a problem, and
// the database DATABASE_URL names, read as the server reads it.
import { ConfigError, loadConfig, type DatabaseConfig } from '../src/server/config.ts';

export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

export function databaseConfig(): DatabaseConfig {
  try {
    return loadConfig().database;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}
