import { z } from 'zod/mini';
import { currencies } from '../money.ts';

// Apart from settings.ts, which the session's schema (auth.ts) cannot import without a cycle.

/** Where an owner stands with the first run: given with the session, and by the setup's answer. */
export const firstRunSchema = z.object({
  /** The currency new clients start in, and an empty dashboard's totals are shown in. */
  mainCurrency: z.enum(currencies),
  /** Neither done nor skipped, and the owner has no client: the dashboard sends them to it. */
  setupNeeded: z.boolean(),
});
export type FirstRun = z.infer<typeof firstRunSchema>;
