import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eventStreamQuerySchema } from '../../../shared/schemas/events.ts';
import { AppError } from '../../errors.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { tokenStreamKey } from '../tokens/tokens.ts';
import { countEventsAfter, latestEventId } from './events.queries.ts';
import type { Subscriber } from './feed.ts';

/** A client further behind than this reloads its data instead of replaying every event. */
export const maxReplay = 1000;

function parseLastEventId(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db } = app.db;

  // The query is checked like any other; a Last-Event-ID that is not a whole number only starts
  // the stream afresh.
  const streamOptions = { onRequest: requireUser, schema: { querystring: eventStreamQuerySchema } };

  app.get('/events', streamOptions, async (request, reply) => {
    const ownerId = currentUser(request).id;
    // A stream opened with a token is counted and ended with that token, as a browser's is with
    // its session, and the feed's heartbeat rechecks the token: revoked or expired, it ends.
    const { accessToken } = request;
    const streamKey = accessToken
      ? tokenStreamKey(accessToken.id)
      : (request.sessionTokenHash ?? '');
    // The browser resends Last-Event-ID when it reconnects by itself; the app passes it in the
    // query when it opens a new stream after being offline.
    const { query } = request;
    const resumeFrom = parseLastEventId(request.headers['last-event-id'] ?? query.lastEventId);
    const latest = await latestEventId(db, ownerId);
    const behind =
      resumeFrom === null ? 0 : await countEventsAfter(db, ownerId, resumeFrom, maxReplay + 1);

    // Checked right before the stream joins the feed, with no wait in between, so streams
    // opened at once cannot all slip under the limits.
    const open = app.feed.openStreams(ownerId, streamKey);
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
    // A reader that does not keep up is not buffered for: the feed skips it until its
    // connection drains, and it then catches up from the log.
    let backedUp = false;
    const write = (text: string | Buffer) => {
      if (raw.writableEnded || raw.write(text) || backedUp) return;
      backedUp = true;
      raw.once('drain', () => {
        backedUp = false;
        app.feed.wake(ownerId);
      });
    };

    let closed = false;
    const subscriber: Subscriber = {
      ownerId,
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
      // A fresh start: the client loads its data now; everything after `latest` comes here.
      write(`id: ${latest}\nevent: ready\ndata: {}\n\n`);
    } else if (behind > maxReplay) {
      write(`id: ${latest}\nevent: reload\ndata: {}\n\n`);
    } else {
      subscriber.lastId = resumeFrom;
    }

    // The feed's heartbeat keeps the stream alive and ends it with its session (feed.ts).
    request.raw.once('close', () => subscriber.close());
    app.feed.subscribe(subscriber);
    // Anything after the resume point (or committed since `latest` was read) goes out now.
    app.feed.wake(ownerId);
  });
};
