import type {
  ExchangeRate,
  Preferences,
  SettingsUpdate,
} from '../../../shared/schemas/settings.ts';
import type { ChangeContext, WritePath } from '../events/write-path.ts';
import { replaceRates, writeAllowRegistration, writePreferences } from './settings.repository.ts';

/**
 * Saves the settings screen: the user's preferences and rates, and the registration switch when
 * the administrator sent one (the route has checked who may).
 */
export async function saveSettings(
  writes: WritePath,
  userId: string,
  update: SettingsUpdate,
): Promise<void> {
  await writes.change(userId, async (context) => {
    if (update.allowRegistration !== undefined)
      await writeAllowRegistration(context.trx, update.allowRegistration, context.now);
    await writeOwnerSettings(context, userId, update);
  });
}

/**
 * The owner's preferences and rates as one step of a larger change (a restore from an export
 * file), in its transaction; it records the settings change like the screen does.
 */
export async function writeOwnerSettings(
  { trx, record, now }: ChangeContext,
  userId: string,
  settings: { preferences: Preferences; rates: ExchangeRate[] },
): Promise<void> {
  await writePreferences(trx, userId, settings.preferences, now);
  await replaceRates(trx, userId, settings.rates);
  await record({
    clientId: null,
    action: 'settings_changed',
    version: 0,
    before: null,
    after: null,
  });
}
