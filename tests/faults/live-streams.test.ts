import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs, strongPassword } from '../auth.ts';
import { openStream, type TestStream } from '../sse.ts';
import { sessionCookieName } from '../../src/server/modules/auth/session.ts';

async function listen(testApp: TestApp): Promise<string> {
  await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  const address = testApp.app.server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return `http://127.0.0.1:${address.port}`;
}

describe('live streams of one owner', () => {
  let testApp: TestApp | null = null;
  const streams: TestStream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await testApp?.close();
    testApp = null;
  });

  it('are capped per session and per owner, and a closed one frees its place', async () => {
    testApp = await buildTestApp({ config: { liveStreamsPerSession: 2, liveStreamsPerOwner: 3 } });
    const baseUrl = await listen(testApp);
    const { email, cookie } = await joinAs(testApp.app);
    const login = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: strongPassword },
    });
    const token = login.cookies.find((c) => c.name === sessionCookieName)?.value ?? '';
    const laptop = cookie;
    const phone = `${sessionCookieName}=${token}`;

    const open = async (who: string) => {
      const stream = await openStream(baseUrl, who);
      streams.push(stream);
      return stream;
    };
    expect((await open(laptop)).status).toBe(200);
    const second = await open(laptop);
    expect(second.status).toBe(200);
    expect((await open(laptop)).status).toBe(429);
    expect((await open(phone)).status).toBe(200);
    const overOwner = await open(phone);
    expect(overOwner.status).toBe(429);

    second.close();
    // The server learns of the closed stream when its connection closes: try until it has.
    let again = 429;
    for (let tries = 0; again === 429 && tries < 100; tries += 1) {
      const stream = await open(laptop);
      again = stream.status;
      if (again === 429) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(again).toBe(200);
  });

  it('end at the next heartbeat when their session is ended on another instance', async () => {
    testApp = await buildTestApp({ config: { liveHeartbeatMs: 200 } });
    const baseUrl = await listen(testApp);
    // A second instance on the same database: the sign-out happens there.
    const other = await buildApp({ config: testApp.app.config, clientDir: null });
    try {
      const { cookie } = await joinAs(testApp.app);
      const stream = await openStream(baseUrl, cookie);
      streams.push(stream);
      await stream.waitFor((message) => message.event === 'ready');
      const logout = await other.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie },
      });
      expect(logout.statusCode).toBe(204);
      await stream.waitFor((message) => message.event === 'end');
      await stream.ended;
    } finally {
      await other.close();
    }
  });

  it('end cleanly when the server shuts down, not with a reset', async () => {
    testApp = await buildTestApp();
    const baseUrl = await listen(testApp);
    const { cookie } = await joinAs(testApp.app);
    let subscribed!: () => void;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    const outcome = new Promise<string>((resolve) => {
      const request = http.get(`${baseUrl}/api/events`, { headers: { cookie } }, (response) => {
        response.setEncoding('utf8');
        // The stream is subscribed once it says so with its first message.
        response.on('data', (chunk: string) => {
          if (chunk.includes('event: ready')) subscribed();
        });
        response.on('end', () => resolve('ended'));
        response.on('aborted', () => resolve('aborted'));
        response.on('error', (error) => resolve(`error: ${error.message}`));
      });
      request.on('error', (error) => resolve(`error: ${error.message}`));
    });
    await Promise.race([ready, outcome]);
    await testApp.close();
    testApp = null;
    expect(await outcome).toBe('ended');
  });
});
