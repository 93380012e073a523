import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

const gzipBytes = promisify(gzip);

/** Below this, gzip saves too little to be worth a header and a decompression. */
const smallestCompressed = 1024;

/**
 * An answer kept as the bytes to send: its JSON, and the gzip of that JSON once a client that
 * accepts gzip has asked for it, compressed once (off the event loop) and then kept with it.
 * Browsers always accept gzip; a page of the list is about a quarter of its size compressed,
 * and writing the bytes to the socket was the largest part of serving a kept answer.
 */
export class KeptAnswer {
  readonly json: Buffer;
  #gzip: Promise<Buffer | null> | null = null;

  constructor(json: Buffer) {
    this.json = json;
  }

  /** The bytes for a request with this Accept-Encoding, and the encoding they are in. */
  async bytesFor(
    acceptEncoding: string | undefined,
  ): Promise<{ bytes: Buffer; encoding: 'gzip' | null }> {
    if (this.json.length < smallestCompressed || !acceptEncoding) {
      return { bytes: this.json, encoding: null };
    }
    if (negotiate(acceptEncoding, ['gzip']) !== 'gzip') return { bytes: this.json, encoding: null };
    // Should compressing ever fail, the plain bytes still answer, this time and every time.
    this.#gzip ??= gzipBytes(this.json).catch(() => null);
    const compressed = await this.#gzip;
    return compressed
      ? { bytes: compressed, encoding: 'gzip' }
      : { bytes: this.json, encoding: null };
  }
}
