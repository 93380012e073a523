import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * One log line per request, written when its answer has gone: Fastify's own two (one on arrival,
 * one on completion) doubled the log and put the address and the outcome on different lines.
 * Fastify's other lines (errors, streams cut short) stay as they are.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  // The line below already says 404: Fastify's "Route GET:/x not found" would be a second.
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    // The address is logged as received; log-redaction.ts scrubs it with the rest of the line.
    const line = {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
