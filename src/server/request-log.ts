import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Fastify's two lines a request doubled the log and split the address from the outcome. */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  // The line below already says 404: Fastify's "Route GET:/x not found" would be a second.
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
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
