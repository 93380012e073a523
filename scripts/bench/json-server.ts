// json-server (the npm package) on a JSON file, started by the bench beside Balance, as its CLI
// would run it (`json-server db.json`): its router over the file, which it rewrites after every
// change, and its default middlewares without the request logger.
import { createRequire } from 'node:module';

interface JsonServer {
  create(): { use(handler: unknown): void; listen(port: number, host: string): void };
  defaults(options: { logger: boolean }): unknown;
  router(file: string): unknown;
}

const jsonServer = createRequire(import.meta.url)('json-server') as JsonServer;
const file = process.env.JSON_SERVER_FILE;
if (!file) throw new Error('JSON_SERVER_FILE must name the JSON file to serve');
const server = jsonServer.create();
server.use(jsonServer.defaults({ logger: false }));
server.use(jsonServer.router(file));
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
