import { describe, expect, it } from 'vitest';
import { startLine } from './start-line.ts';

describe('startLine', () => {
  it.each([
    [{ address: '127.0.0.1', family: 'IPv4', port: 3000 }, 'http://127.0.0.1:3000'],
    [{ address: '::1', family: 'IPv6', port: 8080 }, 'http://[::1]:8080'],
    [{ address: '192.168.1.20', family: 'IPv4', port: 80 }, 'http://192.168.1.20:80'],
  ])('names the address to open: %o', (address, url) => {
    expect(startLine(address)).toBe(`Balance is running at ${url}`);
  });

  it.each(['0.0.0.0', '::'])('names localhost when listening on every address (%s)', (host) => {
    expect(startLine({ address: host, family: host === '::' ? 'IPv6' : 'IPv4', port: 3000 })).toBe(
      "Balance is running at http://localhost:3000 (and at this machine's other addresses)",
    );
  });
});
