import type { AddressInfo } from 'node:net';

/** Plain text, where JSON log lines would bury the address to open. */
export function startLine({ address, family, port }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::')
    return `Balance is running at http://localhost:${port} (and at this machine's other addresses)`;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return `Balance is running at http://${host}:${port}`;
}
