import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parseChunked } from '@discoveryjs/json-ext';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * Characters parsed per piece, one piece a turn of the event loop. Fastify's own parser reads
 * the whole body and parses it in one piece: for an import of 20,000 rows (2.9 MB) that held
 * every other request for 12-26 ms. In pieces of 64 Ki characters, four a turn, other requests
 * still waited 6-15 ms behind a turn now and then (docs/performance.md).
 */
const pieceLength = 16 * 1024;

/** Objects looked at per turn when checking a parsed body for `__proto__`. */
const nodesPerTurn = 2_000;

/**
 * Refuses a parsed body that names `__proto__` anywhere, as Fastify's own parser does. Where a
 * key was parsed whole it is an ordinary key; where the chunked parser merged a piece into an
 * object with an assignment, it replaced that object's prototype instead: both are found here.
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
      throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
    for (const child of Object.values(node)) if (typeof child === 'object') waiting.push(child);
  }
}

/**
 * The request body as text, a piece at a time, with a turn of the event loop after each piece;
 * refused (as Fastify would) when it is longer than `limit` bytes or longer or shorter than its
 * Content-Length.
 */
async function* bodyPieces(
  payload: Readable,
  limit: number,
  declaredLength: number,
): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let received = 0;
  const pieceOut = async function* (text: string): AsyncGenerator<string> {
    for (let start = 0; start < text.length; start += pieceLength) {
      yield text.slice(start, start + pieceLength);
      await nextTurn();
    }
  };
  // Refused part-way, the rest of the body is left unread rather than the stream destroyed: the
  // refusal is answered (with `Connection: close`) before the socket goes.
  for await (const chunk of payload.iterator({ destroyOnReturn: false }) as AsyncIterable<
    Buffer | string
  >) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    yield* pieceOut(decoder.write(bytes));
  }
  yield* pieceOut(decoder.end());
  if (!Number.isNaN(declaredLength) && received !== declaredLength)
    throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  if (received === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
}

/**
 * A Fastify content-type parser for large JSON bodies: parses the body as it arrives, a piece
 * per step, so the event loop is never held by one long parse. It answers the same refusals as
 * Fastify's own JSON parser (too large, wrong length, empty, not JSON, `__proto__`).
 */
export async function parseJsonInPieces(
  request: FastifyRequest,
  payload: Readable,
): Promise<unknown> {
  const limit = request.routeOptions.bodyLimit;
  const declaredLength = Number(request.headers['content-length']);
  if (declaredLength > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  let body: unknown;
  let roots: number;
  try {
    // Asked for by callback: a body cut short inside an array or object ends with no value
    // here, where the returned value would be the part that was parsed.
    roots = await parseChunked(bodyPieces(payload, limit, declaredLength), {
      onRootValue: (value: unknown) => {
        body = value;
      },
    });
  } catch (error) {
    // Fastify's refusals above pass as they are; anything else the parser threw (a syntax
    // error, a body nested too deep for it) means the text is not JSON this server can read.
    if (typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
    throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  }
  if (roots !== 1) throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY();
  await refusePrototypeKeys(body);
  return body;
}
