import type { SettingsUpdate } from '../../../shared/schemas/settings.ts';
import type { WritePath } from '../events/write-path.ts';
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
  await writes.change(userId, async ({ trx, record, now }) => {
    await writePreferences(trx, userId, update.preferences, now);
    await replaceRates(trx, userId, update.rates);
    if (update.allowRegistration !== undefined)
      await writeAllowRegistration(trx, update.allowRegistration, now);
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  });
}
