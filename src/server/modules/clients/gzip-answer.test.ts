import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gzipIfAccepted } from './gzip-answer.ts';

const large = Buffer.from(
  JSON.stringify({ clients: Array.from({ length: 100 }, (_, at) => ({ id: at, name: `N${at}` })) }),
);

describe('a JSON answer', () => {
  it('is sent gzipped to a client that accepts gzip', () => {
    const sent = gzipIfAccepted(large, 'gzip, deflate, br, zstd');
    expect(sent.encoding).toBe('gzip');
    expect(sent.bytes.length).toBeLessThan(large.length / 2);
    expect(gunzipSync(sent.bytes).equals(large)).toBe(true);
  });

  it('is sent as it is to a client that does not accept gzip or prefers it plain', () => {
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
      const sent = gzipIfAccepted(large, acceptEncoding);
      expect(sent, String(acceptEncoding)).toEqual({ bytes: large, encoding: null });
    }
  });

  it('is sent as it is when it is too small to gain from gzip', () => {
    const small = Buffer.from('{"clients":[]}');
    expect(gzipIfAccepted(small, 'gzip')).toEqual({ bytes: small, encoding: null });
  });
});
