import type { FastifyPluginAsync } from 'fastify';
import type { ChangeEvent } from '../../../shared/schemas/events.ts';
import { AppError } from '../../errors.ts';
import { currentUser, readSession, requireUser } from '../auth/session.ts';
import { countEventsAfter, latestEventId } from './events.queries.ts';
import type { Subscriber } from './feed.ts';

/** A client further behind than this reloads its data instead of replaying every event. */
export const maxReplay = 1000;

function parseLastEventId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

export const eventsRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;

  app.get('/events', { onRequest: requireUser }, async (request, reply) => {
    const ownerId = currentUser(request).id;
    // The browser resends Last-Event-ID when it reconnects by itself; the app passes it in the
    // query when it opens a new stream after being offline.
    const query = request.query as { lastEventId?: unknown };
    const resumeFrom = parseLastEventId(request.headers['last-event-id'] ?? query.lastEventId);
    const latest = await latestEventId(db, ownerId);
    const behind =
      resumeFrom === null ? 0 : await countEventsAfter(db, ownerId, resumeFrom, maxReplay + 1);

    // Checked right before the stream joins the feed, with no wait in between, so streams
    // opened at once cannot all slip under the limits.
    const open = app.feed.openStreams(ownerId, request.sessionTokenHash ?? '');
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

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const write = (text: string) => {
      if (!raw.writableEnded) raw.write(text);
    };

    let closed = false;
    const subscriber: Subscriber = {
      ownerId,
      sessionTokenHash: request.sessionTokenHash ?? '',
      lastId: latest,
      send: (event: ChangeEvent) =>
        write(`id: ${event.id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`),
      close: (sessionEnded = false) => {
        if (closed) return;
        closed = true;
        if (sessionEnded) write('event: end\ndata: {}\n\n');
        clearInterval(heartbeat);
        app.feed.unsubscribe(subscriber);
        raw.end();
      },
    };

    write('retry: 2000\n\n');
    if (resumeFrom === null || resumeFrom > latest) {
      // A fresh start: the client loads its data now; everything after `latest` comes here.
      write(`id: ${latest}\nevent: ready\ndata: {}\n\n`);
    } else if (behind > maxReplay) {
      write(`id: ${latest}\nevent: reload\ndata: {}\n\n`);
    } else {
      subscriber.lastId = resumeFrom;
    }

    // Comments every so often keep proxies from closing an idle stream, and recheck the session.
    const heartbeat = setInterval(() => {
      readSession(request, { touch: false })
        .then((session) => {
          if (session?.user.id === ownerId) {
            write(': ping\n\n');
            // A wake-up lost on the way costs at most one heartbeat.
            app.feed.wake(ownerId);
          } else {
            subscriber.close(true);
          }
        })
        .catch((error: unknown) =>
          request.log.warn({ err: error }, 'live stream session check failed'),
        );
    }, app.config.liveHeartbeatMs);

    request.raw.once('close', () => subscriber.close());
    app.feed.subscribe(subscriber);
    // Anything after the resume point (or committed since `latest` was read) goes out now.
    app.feed.wake(ownerId);
  });
};
