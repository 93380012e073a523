import { z } from 'zod/mini';

/** A reminder's place in a charge's schedule: before its due date, on it, or the Nth overdue. */
const reminderStepPattern = /^(?:before|due|overdue-[1-9]\d?)$/;
export const reminderStepSchema = z.string().check(z.regex(reminderStepPattern, 'Unknown step.'));

const reminderStatuses = ['sending', 'retrying', 'sent', 'failed', 'skipped', 'cancelled'] as const;
export type ReminderStatus = (typeof reminderStatuses)[number];

/** Any IANA name this runtime knows ("Asia/Seoul", "UTC"). */
function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const daysBeforeMessage = 'Enter a whole number of days from 1 to 60.';
const everyMessage = 'Enter a whole number of days from 1 to 90.';
const countMessage = 'Enter a whole number from 0 to 20.';

export const reminderPlanSchema = z.object({
  /** The one switch that pauses every reminder of the owner's. */
  enabled: z.boolean('Use true or false.'),
  daysBefore: z.nullable(
    z
      .int(daysBeforeMessage)
      .check(z.minimum(1, daysBeforeMessage), z.maximum(60, daysBeforeMessage)),
  ),
  onDueDate: z.boolean('Use true or false.'),
  overdueEveryDays: z.nullable(
    z.int(everyMessage).check(z.minimum(1, everyMessage), z.maximum(90, everyMessage)),
  ),
  overdueMax: z.int(countMessage).check(z.minimum(0, countMessage), z.maximum(20, countMessage)),
  attachPdf: z.boolean('Use true or false.'),
  timeZone: z
    .string()
    .check(z.trim(), z.refine(isTimeZone, 'Enter a time zone by its name, such as Asia/Seoul.')),
});
export type ReminderPlan = z.infer<typeof reminderPlanSchema>;
/** PUT /api/reminders/plan: the plan, and no key it does not know (decision 043). */
export const reminderPlanBodySchema = z.strictObject(reminderPlanSchema.shape);

export const clientRemindersSchema = z.object({ enabled: z.boolean('Use true or false.') });
export const clientRemindersBodySchema = z.strictObject(clientRemindersSchema.shape);

const reminderSchema = z.object({
  id: z.number(),
  clientId: z.string(),
  clientName: z.string(),
  entryId: z.number(),
  step: z.string(),
  /** The day the step fell due, in the owner's time zone. */
  dueOn: z.string(),
  status: z.enum(reminderStatuses),
  sentTo: z.nullable(z.string()),
  attempts: z.number(),
  /** When a `retrying` one is tried again (ISO time). */
  nextAttemptAt: z.nullable(z.string()),
  lastError: z.nullable(z.string()),
  updatedAt: z.string(),
});

export const reminderListQuerySchema = z.object({
  status: z.optional(z.enum(reminderStatuses, 'Unknown status.')),
});
export const reminderListSchema = z.object({ reminders: z.array(reminderSchema) });
export type ReminderList = z.infer<typeof reminderListSchema>;

/** A charge a reminder names: the ledger's entry and what is left of it. */
const reminderChargeSchema = z.object({
  entryId: z.number(),
  step: z.string(),
  reference: z.string(),
  dueOn: z.string(),
  /** Minor units of the client's currency. */
  remaining: z.number(),
});

const dueReminderSchema = z.object({
  clientId: z.string(),
  clientName: z.string(),
  email: z.string(),
  currency: z.string(),
  /** All the client owes, in minor units, as text (a sum may pass 2^53). */
  amountDue: z.string(),
  charges: z.array(reminderChargeSchema),
  subject: z.string(),
  text: z.string(),
  /** A mailto: address with the subject and text filled in. */
  mailto: z.string(),
});
export type DueReminder = z.infer<typeof dueReminderSchema>;

export const dueRemindersSchema = z.object({
  /** False when no mail server is set up: these are worked through by hand. */
  mailConfigured: z.boolean(),
  today: z.string(),
  reminders: z.array(dueReminderSchema),
});
export type DueReminders = z.infer<typeof dueRemindersSchema>;

export const markSentBodySchema = z.strictObject({
  charges: z
    .array(z.object({ entryId: z.int('Unknown charge.'), step: reminderStepSchema }))
    .check(
      z.minLength(1, 'Name at least one charge.'),
      z.maxLength(200, 'Name at most 200 charges.'),
    ),
});
export type MarkSentBody = z.infer<typeof markSentBodySchema>;
export const markedSentSchema = z.object({ marked: z.number() });

export const reminderPreviewSchema = z.object({
  today: z.string(),
  reminders: z.array(
    z.object({
      on: z.string(),
      clientId: z.string(),
      clientName: z.string(),
      entryId: z.number(),
      step: z.string(),
      remaining: z.number(),
      currency: z.string(),
    }),
  ),
});
export type ReminderPreview = z.infer<typeof reminderPreviewSchema>;

/** What a reminder event in a client's history says was sent. */
export const reminderDetailSchema = z.object({
  step: z.string(),
  charges: z.array(z.object({ entryId: z.number(), step: z.string(), reference: z.string() })),
  sentTo: z.string(),
  /** `hand`: the owner sent it themselves and marked it. */
  by: z.enum(['mail', 'hand']),
  error: z.optional(z.string()),
});
export type ReminderDetail = z.infer<typeof reminderDetailSchema>;
