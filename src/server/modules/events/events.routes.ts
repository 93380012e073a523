import { collectorsClients } from '../books/books.queries.ts';
import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../auth/session.ts';
import { tokenStreamKey } from '../tokens/tokens.ts';
import { countEventsAfter, latestEventId } from './events.queries.ts';
import type { Subscriber } from './feed.ts';

/** Further behind, a client reloads its data instead of replaying every event. */
export const maxReplay = 1000;

function parseLastEventId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

export const eventsRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;

  handle(app, apiRoutes.liveEvents, { onRequest: requireUser }, async (request, reply) => {
    const book = currentBook(request);
    const bookId = book.id;
    // The heartbeat rechecks a token as it does a session: revoked or expired, the stream ends.
    const { accessToken } = request;
    const streamKey = accessToken
      ? tokenStreamKey(accessToken.id)
      : (request.sessionTokenHash ?? '');
    // The app passes it in the query when it opens a new stream after being offline.
    const { query } = request;
    const resumeFrom = parseLastEventId(request.headers['last-event-id'] ?? query.lastEventId);
    const latest = await latestEventId(db, bookId);
    const behind =
      resumeFrom === null ? 0 : await countEventsAfter(db, bookId, resumeFrom, maxReplay + 1);

    // No wait before the stream joins, so streams opened at once cannot all slip under the limits.
    const open = app.feed.openStreams(bookId, streamKey);
    if (
      open.session >= app.config.liveStreamsPerSession ||
      open.owner >= app.config.liveStreamsPerOwner
    ) {
      throw new AppError(
        429,
        'rate_limited',
        'Too many live updates are open for this account; close some tabs',
        {
          headers: { 'retry-after': '30' },
        },
      );
    }

    const clients =
      book.role === 'collector'
        ? new Set(await collectorsClients(db, bookId, book.actor.userId))
        : null;
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    let backedUp = false;
    const write = (text: string | Buffer) => {
      if (raw.writableEnded || raw.write(text) || backedUp) return;
      backedUp = true;
      raw.once('drain', () => {
        backedUp = false;
        app.feed.wake(bookId);
      });
    };

    let closed = false;
    const subscriber: Subscriber = {
      bookId,
      userId: book.actor.userId,
      clients,
      sessionTokenHash: streamKey,
      lastId: latest,
      summarize: query.summarize === 'true',
      write,
      get backedUp() {
        return backedUp;
      },
      close: (sessionEnded = false) => {
        if (closed) return;
        closed = true;
        if (sessionEnded) write('event: end\ndata: {}\n\n');
        app.feed.unsubscribe(subscriber);
        raw.end();
      },
    };

    write('retry: 2000\n\n');
    if (resumeFrom === null || resumeFrom > latest) {
      write(`id: ${latest}\nevent: ready\ndata: {}\n\n`);
    } else if (behind > maxReplay) {
      write(`id: ${latest}\nevent: reload\ndata: {}\n\n`);
    } else {
      subscriber.lastId = resumeFrom;
    }

    request.raw.once('close', () => subscriber.close());
    app.feed.subscribe(subscriber);
    app.feed.wake(bookId);
  });
};
