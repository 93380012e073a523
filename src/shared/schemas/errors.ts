import { z } from 'zod/mini';
import { errorCodes, type ErrorCode } from '../error-codes.ts';

export { errorCodes, type ErrorCode };

/** Every error the API sends has this shape; `fields` names each invalid input. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
