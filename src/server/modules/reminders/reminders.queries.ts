// What this module's routes and sender read. Changes go through reminders.commands.ts.
export {
  isClientPaused,
  listReminders,
  pausedClientIds,
  plansToLookAt,
  readPlan,
  recordedSteps,
  staleMessages,
} from './reminders.repository.ts';
