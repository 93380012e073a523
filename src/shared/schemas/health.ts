import { z } from 'zod/mini';

/** GET /api/health: for a monitor or load balancer; the same shape answers 200 and 503. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  database: z.enum(['sqlite', 'postgres']),
  problem: z.optional(
    z.enum([
      'database_unreachable',
      'database_migrating',
      'database_timeout',
      'database_stopped',
      'disk_full',
    ]),
  ),
  message: z.optional(z.string()),
});
