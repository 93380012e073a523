import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isMainThread } from 'node:worker_threads';
import { parseChunked } from '@discoveryjs/json-ext';
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { JsonShapeCheck } from '../../json-shape.ts';

// One piece a turn, so a large import never holds other requests long (docs/performance.md).
const pieceLength = 16 * 1024;

const setAsideAfter = 1024 * 1024;

const nodesPerTurn = 2_000;

const notJson = () => new AppError(400, 'validation', 'The request body is not valid JSON');

// As Fastify's parser does; the chunked parser may also have replaced a prototype by assignment.
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

async function* textPieces(text: string): AsyncGenerator<string> {
  for (let start = 0; start < text.length; start += pieceLength) {
    yield text.slice(start, start + pieceLength);
    await nextTurn();
  }
}

/**
 * Unparsed, because an import is parsed where it runs (on SQLite, the writer's thread). Its
 * nesting is checked as it arrives unless `shapeCheckedWhereParsed`: the parser checks it.
 */
export async function readBodyBytes(
  request: FastifyRequest,
  payload: Readable,
  shapeCheckedWhereParsed = false,
): Promise<Buffer> {
  const limit = request.routeOptions.bodyLimit;
  const declaredLength = Number(request.headers['content-length']);
  if (declaredLength > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  // Copied into place as it arrives (joining at the end held the thread), but set aside only after
  // the first MiB, so a client that declares 64 MiB and sends a byte reserves nothing.
  const declared =
    Number.isSafeInteger(declaredLength) && declaredLength >= 0 ? declaredLength : null;
  let whole: Buffer | null = null;
  const chunks: Buffer[] = [];
  let received = 0;
  const nesting = shapeCheckedWhereParsed ? null : new JsonShapeCheck();
  // Not destroyed on refusal, so the answer (with `Connection: close`) goes out before the socket.
  for await (const chunk of payload.iterator({ destroyOnReturn: false }) as AsyncIterable<
    Buffer | string
  >) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (received > limit - bytes.length) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
    nesting?.read(bytes);
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
    if (whole === null) chunks.push(bytes);
    else if (received + bytes.length <= whole.length) bytes.copy(whole, received);
    received += bytes.length;
  }
  if (!Number.isNaN(declaredLength) && received !== declaredLength)
    throw new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH();
  if (received === 0) throw new errorCodes.FST_ERR_CTP_EMPTY_JSON_BODY();
  return whole ?? Buffer.concat(chunks, received);
}

/** Other types are answered 415: Fastify's text parser would hand the command a string. */
export function takeJsonAsBytes(
  app: FastifyInstance,
  { shapeCheckedWhereParsed = false } = {},
): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) =>
    readBodyBytes(request, payload, shapeCheckedWhereParsed),
  );
}

function textOf(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) throw notJson();
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** In pieces where requests are answered; whole in SQLite's writer, faster there (decision 023). */
export function parseJsonBody(bytes: Uint8Array): Promise<unknown> {
  return isMainThread ? parseJsonInPieces(bytes) : parseJsonWhole(bytes);
}

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

export async function parseJsonInPieces(bytes: Uint8Array): Promise<unknown> {
  const text = textOf(bytes);
  let body: unknown;
  let roots: number;
  try {
    // By callback: a body cut short would otherwise return the part that was parsed.
    roots = await parseChunked(textPieces(text), {
      onRootValue: (value: unknown) => {
        body = value;
      },
    });
  } catch {
    throw notJson();
  }
  if (roots !== 1) throw notJson();
  await refusePrototypeKeys(body);
  return body;
}
