// What other modules may read of the settings. Changing them is settings.commands.ts's job.
export {
  readAllowRegistration,
  readBusiness,
  readLanguage,
  readPreferences,
  readRates,
} from './settings.repository.ts';
