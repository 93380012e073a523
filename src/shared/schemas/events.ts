import { z } from 'zod/mini';
import { historyActions } from './clients.ts';

export const eventActions = [...historyActions, 'settings_changed'] as const;
export type EventAction = (typeof eventActions)[number];

/** The data of a `change` message on the live stream: which thing changed, not its contents. */
export const changeEventSchema = z.object({
  id: z.number(),
  action: z.enum(eventActions),
  clientId: z.nullable(z.string()),
});
export type ChangeEvent = z.infer<typeof changeEventSchema>;
