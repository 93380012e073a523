import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from './config.ts';
import { isTrustedProxy, trustedProxies } from './proxy-trust.ts';

/**
 * Caps open connections in all and per address, so slow or idle clients cannot take every
 * connection. Behind a proxy every connection comes from the proxy, so the per-address cap
 * does not count the proxies TRUST_PROXY names (with a hop count, it cannot tell them apart
 * and is off: the proxy should cap clients per address).
 */
export function limitConnections(server: Server, config: Config): void {
  server.maxConnections = config.maxConnections;
  const limit = config.maxConnectionsPerAddress;
  if (limit === 0 || typeof config.trustProxy === 'number') return;
  const proxies = trustedProxies(config.trustProxy);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    if (proxies && isTrustedProxy(proxies, address)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > limit) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
