// The bench's yardstick: a bare Fastify app on the same Node binary and settings as the real
// server (same logger level, no plugins), one route with a fixed small JSON body. Every figure of
// the bench is read as a ratio to this one, measured in the same run on the same machine.
import Fastify from 'fastify';

const app = Fastify({
  logger: { level: process.env.LOG_LEVEL ?? 'warn' },
  forceCloseConnections: 'idle',
});

const body = { status: 'ok', service: 'baseline', items: [1, 2, 3] };
app.get('/baseline', async () => body);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
