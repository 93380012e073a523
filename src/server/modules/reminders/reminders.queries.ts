// What this module's routes and sender read. Changes go through reminders.commands.ts.
export {
  defaultPlan,
  enabledPlans,
  isClientPaused,
  listReminders,
  pausedClientIds,
  readPlan,
  recordedSteps,
  staleMessages,
} from './reminders.repository.ts';
