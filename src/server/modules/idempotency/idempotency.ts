import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { AppError, unauthenticated } from '../../errors.ts';
import {
  claimKey,
  deleteOldKeys,
  findKey,
  releaseKey,
  storeAnswer,
} from './idempotency.repository.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route's answers are never kept (one that holds a secret), the key is ignored. */
    idempotency?: boolean;
  }
  interface FastifyRequest {
    idempotencyKey: { userId: string; key: string } | null;
  }
}

const keepMs = 24 * 3_600_000;
/** Unanswered after this long, a claim's process has ended: a retry may take it. */
const staleMs = 60_000;
const sweepIntervalMs = 10 * 60_000;
const keyPattern = /^[\w-]{8,128}$/;
const notKept = new Set([408, 429]);

const hashedPerTurn = 1024 * 1024;

export async function requestHash(request: FastifyRequest): Promise<string> {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  const { body } = request;
  if (!Buffer.isBuffer(body)) return hash.update(JSON.stringify(body ?? null)).digest('hex');
  // An unparsed body may be 64 MiB: hashed in pieces, so it never holds the thread for long.
  for (let start = 0; start < body.length; start += hashedPerTurn) {
    if (start > 0) await nextTurn();
    hash.update(body.subarray(start, start + hashedPerTurn));
  }
  return hash.digest('hex');
}

/** As hooks around every signed-in POST, so routes need not know. */
export function idempotency(app: FastifyInstance): void {
  const { kysely: db } = app.db;
  app.decorateRequest('idempotencyKey', null);

  // The user was known when the request came in; their account may have been deleted since.
  const claim = (row: Parameters<typeof claimKey>[1]) =>
    claimKey(db, row).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) throw unauthenticated();
      throw error;
    });

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const header = request.headers['idempotency-key'];
    if (header === undefined || !request.user) return;
    if (request.routeOptions.config.idempotency === false) return;
    if (typeof header !== 'string' || !keyPattern.test(header)) {
      throw new AppError(
        400,
        'validation',
        'Idempotency-Key must be 8 to 128 letters, digits, - or _',
      );
    }
    const userId = request.user.id;
    const hash = await requestHash(request);
    const now = Date.now();
    if (await claim({ userId, key: header, requestHash: hash, now })) {
      request.idempotencyKey = { userId, key: header };
      return;
    }
    const kept = await findKey(db, userId, header);
    if (kept && kept.request_hash !== hash) {
      throw new AppError(
        422,
        'conflict',
        'This Idempotency-Key was already used for another request',
      );
    }
    if (kept && kept.status !== null && kept.body !== null) {
      if (kept.content_type) void reply.header('content-type', kept.content_type);
      return reply.header('idempotent-replayed', 'true').status(kept.status).send(kept.body);
    }
    if (kept && kept.created_at < now - staleMs) {
      await releaseKey(db, userId, header);
      if (await claim({ userId, key: header, requestHash: hash, now })) {
        request.idempotencyKey = { userId, key: header };
        return;
      }
    }
    throw new AppError(
      409,
      'conflict',
      'The same request is still being answered; try again shortly',
      {
        headers: { 'retry-after': '1' },
      },
    );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyKey;
    if (!claim) return payload;
    request.idempotencyKey = null;
    const status = reply.statusCode;
    if (status >= 500 || notKept.has(status) || typeof payload !== 'string') {
      // Nothing was done, or we cannot tell: the key is free for a retry to run.
      await releaseKey(db, claim.userId, claim.key);
      return payload;
    }
    const contentType = reply.getHeader('content-type');
    await storeAnswer(db, claim.userId, claim.key, {
      status,
      contentType: typeof contentType === 'string' ? contentType : null,
      body: payload,
    });
    return payload;
  });

  const sweep = async () => {
    if (app.db.health.starting !== null) return;
    const now = Date.now();
    await deleteOldKeys(db, { before: now - keepMs, staleBefore: now - staleMs }).catch(
      (error: unknown) => app.log.warn({ err: error }, 'could not delete old idempotency keys'),
    );
  };
  const timer = setInterval(() => void sweep(), sweepIntervalMs);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
