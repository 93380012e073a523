import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { itemsPerChunk, jsonStream, textStream } from './export-stream.ts';

/** Items already at hand, as a page read before it was asked for is. */
async function* numbers(count: number) {
  for (let at = 0; at < count; at++) yield at;
}

/** Reads the stream whole, and how many chunks it had given when other waiting work ran. */
async function readWhileOtherWorkWaits(stream: Readable) {
  let chunks = 0;
  let text = '';
  let chunksWhenOtherWorkRan: number | null = null;
  setImmediate(() => (chunksWhenOtherWorkRan = chunks));
  for await (const chunk of stream) {
    chunks += 1;
    text += String(chunk);
  }
  return { chunks, text, chunksWhenOtherWorkRan };
}

describe('an export stream', () => {
  it('lets other requests in between its chunks of text, even with every item at hand', async () => {
    const count = itemsPerChunk * 10;
    const read = await readWhileOtherWorkWaits(
      textStream('head\n', numbers(count), (chunk) => chunk.map((n) => `${n}\n`).join('')),
    );
    expect(read.text).toBe(`head\n${Array.from({ length: count }, (_, n) => `${n}\n`).join('')}`);
    expect(read.chunks).toBe(11);
    expect(read.chunksWhenOtherWorkRan).not.toBeNull();
    expect(read.chunksWhenOtherWorkRan).toBeLessThanOrEqual(2);
  });

  it('lets other requests in between its chunks of JSON, even with every item at hand', async () => {
    const count = itemsPerChunk * 10;
    const read = await readWhileOtherWorkWaits(
      jsonStream([
        ['format', 'test'],
        ['items', numbers(count)],
      ]),
    );
    expect(JSON.parse(read.text)).toEqual({
      format: 'test',
      items: Array.from({ length: count }, (_, n) => n),
    });
    expect(read.chunksWhenOtherWorkRan).not.toBeNull();
    expect(read.chunksWhenOtherWorkRan).toBeLessThanOrEqual(3);
  });
});
