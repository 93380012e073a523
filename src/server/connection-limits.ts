import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from './config.ts';
import { isTrustedProxy, trustedProxies } from './proxy-trust.ts';

/** Trusted proxies are not capped per address; with a hop count they cannot be told apart: off. */
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
