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

// A reference row, not the yardstick: text of the size and shape of the list's first page (50
// clients, count, cursor, totals), made once and sent as it is. It shows what answering that much
// costs with no session, no query and no security headers: the most a signed-in list page could reach on this machine.
const listSizedBody = JSON.stringify({
  clients: Array.from({ length: 50 }, (_unused, index) => ({
    id: `benchReferenceClient${String(index).padStart(2, '0')}`,
    firstName: `Reference${index}`,
    lastName: `Client ${index}`,
    email: `reference.client.${index}@example.com`,
    phone: `+1 555 01${String(index).padStart(2, '0')} 000`,
    balance: 123_456 + index,
    currency: 'USD',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  })),
  count: 10_000,
  nextCursor: Buffer.from(JSON.stringify(['reference client 49', 'x'.repeat(22)])).toString(
    'base64url',
  ),
  totals: ['KRW', 'USD', 'CAD', 'MYR'].map((currency) => ({ currency, total: '1234567890' })),
  converted: null,
});
app.get('/baseline/list-sized', (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(listSizedBody),
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
