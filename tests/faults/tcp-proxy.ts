import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can misbehave: freeze it (connections stay open
 * but nothing passes, as with a stopped or cut-off server), cut every connection and refuse new
 * ones (as with a restart), then heal.
 */
export interface TcpProxy {
  port: number;
  freeze(): void;
  cutAndRefuse(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let mode: 'pass' | 'frozen' | 'refusing' = 'pass';
  const held: (() => void)[] = [];

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((incoming) => {
    track(incoming);
    if (mode === 'refusing') {
      incoming.destroy();
      return;
    }
    const connect = () => {
      const outgoing = net.connect(target.port, target.host);
      track(outgoing);
      incoming.pipe(outgoing);
      outgoing.pipe(incoming);
      incoming.on('close', () => outgoing.destroy());
      outgoing.on('close', () => incoming.destroy());
    };
    if (mode === 'frozen') held.push(connect);
    else connect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('proxy did not listen');

  return {
    port: address.port,
    freeze() {
      mode = 'frozen';
      for (const socket of sockets) socket.pause();
    },
    cutAndRefuse() {
      mode = 'refusing';
      for (const socket of sockets) socket.destroy();
    },
    heal() {
      mode = 'pass';
      for (const socket of sockets) socket.resume();
      for (const connect of held.splice(0)) connect();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
