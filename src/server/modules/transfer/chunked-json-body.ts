import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isMainThread } from 'node:worker_threads';
import { parseChunked } from '@discoveryjs/json-ext';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { JsonShapeCheck } from '../../json-shape.ts';

/**
 * Characters parsed per piece, one piece a turn of the event loop. Fastify's own parser parses a
 * body in one piece: for an import of 20,000 rows (2.9 MB) that held every other request for
 * 12-26 ms. In pieces of 64 Ki characters, four a turn, other requests still waited 6-15 ms
 * behind a turn now and then (docs/performance.md).
 */
const pieceLength = 16 * 1024;

/** Bytes of a body received before its whole declared length is set aside (`readBodyBytes`). */
const setAsideAfter = 1024 * 1024;

/** Objects looked at per turn when checking a parsed body for `__proto__`. */
const nodesPerTurn = 2_000;

/** What a body that is not JSON (or names `__proto__`) is answered, as Fastify's refusal is. */
const notJson = () => new AppError(400, 'validation', 'The request body is not valid JSON');

/**
 * Refuses a parsed body that names `__proto__` anywhere, or a `constructor` holding a
 * `prototype`, as Fastify's own parser does. Where a key was parsed whole it is an ordinary key;
 * where the chunked parser merged a piece into an object with an assignment, it replaced that
 * object's prototype instead: both are found here.
 */
async function refusePrototypeKeys(value: unknown): Promise<void> {
  const waiting: unknown[] = [value];
  let seen = 0;
  while (waiting.length > 0) {
    const node = waiting.pop();
    if (typeof node !== 'object' || node === null) continue;
    if (++seen % nodesPerTurn === 0) await nextTurn();
    const expected = Array.isArray(node) ? Array.prototype : Object.prototype;
    if (Object.getPrototypeOf(node) !== expected || Object.hasOwn(node, '__proto__'))
      throw notJson();
    const constructor: unknown = Object.hasOwn(node, 'constructor')
      ? (node as { constructor: unknown }).constructor
      : null;
    if (
      typeof constructor === 'object' &&
      constructor !== null &&
      Object.hasOwn(constructor, 'prototype')
    )
      throw notJson();
    for (const child of Object.values(node)) if (typeof child === 'object') waiting.push(child);
  }
}

/** The text a piece at a time, with a turn of the event loop after each piece. */
async function* textPieces(text: string): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += pieceLength) {
    yield text.slice(start, start + pieceLength);
    await nextTurn();
  }
}

/**
 * A Fastify content-type parser for a large body that is handed on unparsed (an import's rows are
 * parsed and checked where the import runs: on SQLite, the writer's thread). It gives the body's
 * bytes, refused (as Fastify would) when longer than the route's limit, longer or shorter than its
 * Content-Length, or empty; and refused as soon as it nests deeper than `maxJsonDepth`, before
 * any of it is parsed.
 */
export async function readBodyBytes(request: FastifyRequest, payload: Readable): Promise<Buffer> {
  const limit = request.routeOptions.bodyLimit;
  const declaredLength = Number(request.headers['content-length']);
  if (declaredLength > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  // With its length declared, each chunk is copied into place as it arrives. Joined at the end,
  // a restore's 32 MB held the thread for about 30 ms in one turn (its fresh memory's first
  // touch, mostly). The whole length is taken only once the first MiB has come: a client that
  // declares 64 MiB and sends a byte has 64 MiB set aside for nothing.
  const declared =
    Number.isSafeInteger(declaredLength) && declaredLength >= 0 ? declaredLength : null;
  let whole: Buffer | null = null;
  const chunks: Buffer[] = [];
  let received = 0;
  const nesting = new JsonShapeCheck();
  // Refused part-way, the rest of the body is left unread rather than the stream destroyed: the
  // refusal is answered (with `Connection: close`) before the socket goes.
  for await (const chunk of payload.iterator({ destroyOnReturn: false }) as AsyncIterable<
    Buffer | string
  >) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (received > limit - bytes.length) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    nesting.read(bytes);
    if (
      whole === null &&
      declared !== null &&
      received + bytes.length >= Math.min(declared, setAsideAfter)
    ) {
      whole = Buffer.allocUnsafe(declared);
      let at = 0;
      for (const earlier of chunks) {
        earlier.copy(whole, at);
        at += earlier.length;
      }
      chunks.length = 0;
    }
    // Past the declared length, only counted: the body is refused below.
    if (whole === null) chunks.push(bytes);
    else if (received + bytes.length <= whole.length) bytes.copy(whole, received);
    received += bytes.length;
  }
  if (!Number.isNaN(declaredLength) && received !== declaredLength)
    throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  if (received === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  return whole ?? Buffer.concat(chunks, received);
}

/**
 * For a plugin whose routes hand their body to a command as bytes (the import, the restore):
 * JSON arrives as bytes (`readBodyBytes`), and any other type is answered 415, since Fastify's
 * text parser would hand the command a string.
 */
export function takeJsonAsBytes(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', readBodyBytes);
}

/** Read as Fastify reads a body: bytes that are not UTF-8 become U+FFFD. */
function textOf(bytes: Uint8Array): string {
  // No body at all (a request without one, or of no type) is not JSON either.
  if (!(bytes instanceof Uint8Array)) throw notJson();
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // A byte order mark is not part of the value; Fastify's parser leaves it out too.
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A command's JSON body (UTF-8), parsed where the command runs, and refused with the answer
 * Fastify's own parser gives when it is not one JSON value or names `__proto__`:
 * - on the thread that answers requests (PostgreSQL's commands run there), a piece per turn of
 *   the event loop, so that a long parse never holds it;
 * - in SQLite's writer thread, in one piece, three to four times faster: it holds no connection
 *   there (decision 023), and others' writes wait at most for this one piece, shorter than the
 *   import's own writes they may wait for anyway.
 */
export function parseJsonBody(bytes: Uint8Array): Promise<unknown> {
  return isMainThread ? parseJsonInPieces(bytes) : parseJsonWhole(bytes);
}

/** `parseJsonBody` in one piece. */
export async function parseJsonWhole(bytes: Uint8Array): Promise<unknown> {
  let body: unknown;
  try {
    body = JSON.parse(textOf(bytes));
  } catch {
    throw notJson();
  }
  await refusePrototypeKeys(body);
  return body;
}

/** `parseJsonBody` a piece per turn of the event loop. */
export async function parseJsonInPieces(bytes: Uint8Array): Promise<unknown> {
  const text = textOf(bytes);
  let body: unknown;
  let roots: number;
  try {
    // Asked for by callback: a body cut short inside an array or object ends with no value
    // here, where the returned value would be the part that was parsed.
    roots = await parseChunked(textPieces(text), {
      onRootValue: (value: unknown) => {
        body = value;
      },
    });
  } catch {
    // A syntax error, or a body nested too deep for the parser: not JSON this server can read.
    throw notJson();
  }
  if (roots !== 1) throw notJson();
  await refusePrototypeKeys(body);
  return body;
}
