import type { AddressInfo } from 'node:net';

/**
 * The one plain line the server prints once it listens, whatever the log level: the address to
 * open, where JSON log lines would bury it.
 */
export function startLine({ address, family, port }: AddressInfo): string {
  if (address === '0.0.0.0' || address === '::')
    return `Balance is running at http://localhost:${port} (and at this machine's other addresses)`;
  const host = family === 'IPv6' ? `[${address}]` : address;
  return `Balance is running at http://${host}:${port}`;
}
