import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/server/config.ts';
import { buildTestApp, type TestApp } from '../app.ts';

/** A raw connection to the server, so a test can send a request as slowly as it likes. */
function connect(
  port: number,
): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
    // A connection the server refuses may end in a reset: that is a close too.
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => data, closed }));
    socket.once('error', reject);
  });
}

async function listening(config: Partial<Config>): Promise<{ testApp: TestApp; port: number }> {
  const testApp = await buildTestApp({ config });
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const address = testApp.app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return { testApp, port: address.port };
}

async function askHealth(port: number): Promise<string> {
  const { socket, received, closed } = await connect(port);
  socket.write('GET /api/health HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n');
  await closed;
  return received();
}

describe('slow and greedy clients', () => {
  let testApp: TestApp | null = null;
  afterEach(async () => {
    await testApp?.close();
    testApp = null;
  });

  it('answers 408 to a body that does not arrive in time, and closes its connection', async () => {
    const started = await listening({ requestTimeoutMs: 1000 });
    testApp = started.testApp;
    const slow = await connect(started.port);
    slow.socket.write(
      'POST /api/auth/login HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n' +
        'content-length: 1000\r\n\r\n{"email":',
    );
    // Nothing more is sent: the server must give up on it by itself.
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses connections beyond the limit per address, and serves the others', async () => {
    const started = await listening({ maxConnectionsPerAddress: 4 });
    testApp = started.testApp;
    const held = await Promise.all(Array.from({ length: 3 }, () => connect(started.port)));
    try {
      // Three held and one asking: at the limit, still served.
      expect(await askHealth(started.port)).toMatch(/^HTTP\/1\.1 200/);
      held.push(await connect(started.port));
      const extra = await connect(started.port);
      await extra.closed;
      expect(extra.received()).toBe('');
      expect(held.every(({ socket }) => !socket.destroyed)).toBe(true);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });

  it('refuses connections beyond the total limit', async () => {
    const started = await listening({ maxConnections: 3, maxConnectionsPerAddress: 0 });
    testApp = started.testApp;
    const held = await Promise.all(Array.from({ length: 3 }, () => connect(started.port)));
    try {
      const extra = await connect(started.port);
      await extra.closed;
      expect(extra.received()).toBe('');
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });
});
