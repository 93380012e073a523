import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';

export type JsonSection =
  [key: string, value: unknown] | [key: string, items: AsyncIterable<unknown>];

// Each chunk gets a turn of its own: promise callbacks alone never give way to other requests.
export const itemsPerChunk = 100;

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

async function* jsonText(sections: JsonSection[]): AsyncGenerator<string> {
  let separator = '{';
  for (const [key, value] of sections) {
    const name = `${separator}${JSON.stringify(key)}:`;
    separator = ',';
    if (!isAsyncIterable(value)) {
      yield name + JSON.stringify(value);
      continue;
    }
    let chunk = `${name}[`;
    let count = 0;
    for await (const item of value) {
      chunk += (count === 0 ? '' : ',') + JSON.stringify(item);
      count += 1;
      if (count % itemsPerChunk === 0) {
        yield chunk;
        chunk = '';
        await nextTurn();
      }
    }
    yield `${chunk}]`;
  }
  yield separator === '{' ? '{}' : '}';
}

/** Page by page, so an export's memory does not grow with the owner's data. */
export function jsonStream(sections: JsonSection[]): Readable {
  return Readable.from(jsonText(sections));
}

export function textStream<T>(
  head: string,
  items: AsyncIterable<T>,
  format: (chunk: T[]) => string,
): Readable {
  async function* text() {
    yield head;
    let chunk: T[] = [];
    for await (const item of items) {
      chunk.push(item);
      if (chunk.length === itemsPerChunk) {
        yield format(chunk);
        chunk = [];
        await nextTurn();
      }
    }
    if (chunk.length > 0) yield format(chunk);
  }
  return Readable.from(text());
}
