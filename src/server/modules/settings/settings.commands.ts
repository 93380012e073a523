import type {
  Business,
  ExchangeRate,
  Preferences,
  SettingsUpdate,
  Setup,
} from '../../../shared/schemas/settings.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Locale } from '../../../shared/locales.ts';
import { AppError } from '../../errors.ts';
import { command, type ChangeContext } from '../events/write-path.ts';
import {
  replaceRates,
  writeAllowRegistration,
  writeBusiness,
  writeLanguage,
  writePreferences,
  writeSetup,
} from './settings.repository.ts';

/** The route has checked who may send the registration switch. A part left out stays as it is. */
export const saveSettings = command(
  async ({ trx, record, now }, userId, update: SettingsUpdate): Promise<void> => {
    if (update.rates) checkRateDates(update.rates, now);
    if (update.allowRegistration !== undefined)
      await writeAllowRegistration(trx, update.allowRegistration, now);
    if (update.preferences) await writePreferences(trx, userId, update.preferences, now);
    if (update.business) await writeBusiness(trx, userId, update.business, now);
    if (update.rates) await replaceRates(trx, userId, update.rates);
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  },
);

/** The browser's today may be a day ahead of the server's; anything later has not happened yet. */
function checkRateDates(rates: ExchangeRate[], now: number): void {
  const latest = addDays(utcDay(now), 1);
  const fields = Object.fromEntries(
    rates.flatMap((rate, index) =>
      rate.date > latest
        ? [[`rates.${index}.date`, 'The date of a rate cannot be in the future.']]
        : [],
    ),
  );
  if (Object.keys(fields).length > 0)
    throw new AppError(400, 'validation', 'A rate is dated in the future', { fields });
}

/** One step of a larger change (a restore from an export file), in its transaction. */
export async function writeOwnerSettings(
  { trx, record, now }: ChangeContext,
  userId: string,
  settings: { preferences: Preferences; rates: ExchangeRate[]; business?: Business | undefined },
): Promise<void> {
  await writePreferences(trx, userId, settings.preferences, now);
  if (settings.business) await writeBusiness(trx, userId, settings.business, now);
  await replaceRates(trx, userId, settings.rates);
  await record({
    clientId: null,
    action: 'settings_changed',
    version: 0,
    before: null,
    after: null,
  });
}

export const saveLanguage = command(
  async ({ trx, record, now }, userId, language: Locale | null): Promise<void> => {
    await writeLanguage(trx, userId, language, now);
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  },
);

/** The first-run setup, done or skipped: either way it is not offered again. */
export const finishSetup = command(
  async ({ trx, record, now }, userId, setup: Setup): Promise<void> => {
    await writeSetup(trx, userId, setup, now);
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  },
);
