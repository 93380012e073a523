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
import { readLockDate } from './settings.queries.ts';
import {
  replaceRates,
  writeAllowRegistration,
  writeBusiness,
  writeLanguage,
  writeLockDate,
  writePersonLanguage,
  writePreferences,
  writeSetup,
} from './settings.repository.ts';

/** The route has checked who may send the registration switch. A part left out stays as it is. */
export const saveSettings = command(
  async ({ trx, record, now }, bookId, update: SettingsUpdate): Promise<void> => {
    if (update.rates) checkRateDates(update.rates, now);
    if (update.allowRegistration !== undefined)
      await writeAllowRegistration(trx, update.allowRegistration, now);
    if (update.preferences) await writePreferences(trx, bookId, update.preferences, now);
    if (update.business) await writeBusiness(trx, bookId, update.business, now);
    if (update.rates) await replaceRates(trx, bookId, update.rates);
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
  bookId: string,
  settings: {
    preferences: Preferences;
    rates: ExchangeRate[];
    business?: Business | undefined;
    /** A restore's: the day the book it came from was closed up to. */
    lockDate?: string | null | undefined;
  },
): Promise<void> {
  await writePreferences(trx, bookId, settings.preferences, now);
  if (settings.business) await writeBusiness(trx, bookId, settings.business, now);
  await replaceRates(trx, bookId, settings.rates);
  if (settings.lockDate) await writeLockDate(trx, bookId, settings.lockDate);
  await record({
    clientId: null,
    action: 'settings_changed',
    version: 0,
    before: null,
    after: null,
  });
}

/** The person's language; an owner's is also the book's, which its clients receive. */
export const saveLanguage = command(
  async (
    { trx, record, now },
    bookId,
    language: Locale | null,
    person: { userId: string; isOwner: boolean },
  ): Promise<void> => {
    await writePersonLanguage(trx, person.userId, language);
    if (person.isOwner) await writeLanguage(trx, bookId, language, now);
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
  async ({ trx, record, now }, bookId, setup: Setup): Promise<void> => {
    await writeSetup(trx, bookId, setup, now);
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  },
);

/**
 * The day the book is closed up to (issue 59): an owner's act, recorded as such. Moving it later
 * closes more; earlier, or null, opens again what was closed.
 */
export const saveLockDate = command(
  async ({ trx, record }, bookId, lockDate: string | null): Promise<void> => {
    const previous = await readLockDate(trx, bookId);
    if (previous === lockDate) return;
    await writeLockDate(trx, bookId, lockDate);
    await record({
      clientId: null,
      action: 'lock_date_set',
      version: 0,
      before: null,
      after: null,
      closing: { lockDate, previous },
    });
  },
);
