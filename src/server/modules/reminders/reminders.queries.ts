// What this module's routes and sender read. Changes go through reminders.commands.ts.
export {
  enabledPlans,
  isClientPaused,
  listReminders,
  pausedClientIds,
  readPlan,
  recordedSteps,
  staleMessages,
} from './reminders.repository.ts';
