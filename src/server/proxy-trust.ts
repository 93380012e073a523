import { BlockList, isIP } from 'node:net';
import { proxyEntry, type Config } from './config.ts';

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

export function trustedProxies(trustProxy: Config['trustProxy']): BlockList | null {
  if (!Array.isArray(trustProxy)) return null;
  const list = new BlockList();
  for (const text of trustProxy) {
    const entry = proxyEntry(text);
    if (!entry) continue;
    if (entry.prefix === null) list.addAddress(entry.address, family(entry.address));
    else list.addSubnet(entry.address, entry.prefix, family(entry.address));
  }
  return list;
}

export function isTrustedProxy(list: BlockList, address: string): boolean {
  return list.check(address, family(address));
}

/** `hop` 0 is the peer itself. A function, since Fastify trusts no hop at all for a number. */
export function proxyTrust(
  trustProxy: Config['trustProxy'],
): false | ((address: string, hop: number) => boolean) {
  if (trustProxy === false) return false;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  const list = trustedProxies(trustProxy);
  return (address) => list !== null && isTrustedProxy(list, address);
}
