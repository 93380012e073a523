import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { startLine } from './start-line.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const app = await buildApp({
  config,
  clientDir: path.resolve(import.meta.dirname, '../../dist/client'),
  logger: true,
  sendReminders: true,
  // Listening first: a supervisor sees it up, and health says what it waits for.
  waitForDatabase: false,
  // A crashed SQLite thread would fail every query sent to it from now on: start afresh.
  onFatal: (error) => crash('a database thread stopped', error),
});

let closing = false;
async function shutDown(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing requests in flight');
  try {
    await app.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
// An error nothing else handled is a bug: carrying on in an unknown state could corrupt data
// (decision 009).
function crash(kind: string, error: unknown): never {
  app.log.fatal({ err: error }, `${kind}: exiting`);
  process.exit(1);
}
process.on('uncaughtException', (error) => crash('uncaught exception', error));
process.on('unhandledRejection', (reason) => crash('unhandled promise rejection', reason));
process.once('SIGTERM', (signal) => void shutDown(signal));
process.once('SIGINT', (signal) => void shutDown(signal));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  app.log.fatal({ err: error }, 'could not start listening');
  await app.close();
  process.exit(1);
}
// PostgreSQL may not answer yet: the app keeps trying, answering 503 until it does.
const failed = await app.databaseReady.then(
  () => null,
  (error: unknown) => error,
);
if (failed !== null && !closing) crash('the database could not be opened', failed);
const listening = app.server.address();
// Said once it serves: whoever waits for this line may use it at once.
if (!closing && listening !== null && typeof listening === 'object')
  process.stdout.write(`${startLine(listening)}\n`);
