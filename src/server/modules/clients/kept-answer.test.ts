import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { KeptAnswer } from './kept-answer.ts';

const large = Buffer.from(
  JSON.stringify({ clients: Array.from({ length: 100 }, (_, at) => ({ id: at, name: `N${at}` })) }),
);

describe('a kept answer', () => {
  it('is sent gzipped to a client that accepts gzip, compressed once', () => {
    const answer = new KeptAnswer(large);
    const first = answer.bytesFor('gzip, deflate, br, zstd');
    expect(first.encoding).toBe('gzip');
    expect(first.bytes.length).toBeLessThan(large.length / 2);
    expect(gunzipSync(first.bytes).equals(large)).toBe(true);
    const again = answer.bytesFor('gzip');
    expect(again.bytes).toBe(first.bytes);
  });

  it('is sent as it is to a client that does not accept gzip or prefers it plain', () => {
    const answer = new KeptAnswer(large);
    for (const acceptEncoding of [
      undefined,
      '',
      'identity',
      'br',
      'gzip;q=0',
      'deflate, gzip;q=0',
      'gzip;q=0, *',
      'identity;q=1, gzip;q=0.5',
    ]) {
      const sent = answer.bytesFor(acceptEncoding);
      expect(sent, String(acceptEncoding)).toEqual({ bytes: large, encoding: null });
    }
  });

  it('is sent as it is when it is too small to gain from gzip', () => {
    const small = Buffer.from('{"clients":[]}');
    expect(new KeptAnswer(small).bytesFor('gzip')).toEqual({ bytes: small, encoding: null });
  });
});
