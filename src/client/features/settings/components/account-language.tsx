import { useRef, useState } from 'react';
import { localeNames, isLocale, locales, type Locale } from '../../../../shared/locales.ts';
import { useFlash } from '../../../components/flash.tsx';
import { changeLocale, loadLocale } from '../../../i18n/i18n.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useSaveLanguage } from '../api/language.ts';

/**
 * The app's language, kept with the account: choosing one shows the app in it at once (the
 * screen's Save is not needed) and every device the owner logs in on follows.
 */
export function AccountLanguage() {
  const { t, locale } = useI18n();
  const showFlash = useFlash();
  const save = useSaveLanguage();
  // The owner's pick, shown from the moment it is made. Bound to the shown language alone, the
  // select went back to the old one while the new one's texts loaded, and any re-render then
  // (a refetch, texts arriving) could leave the old one as the value the owner confirmed.
  const [picked, setPicked] = useState<Locale | null>(null);
  const latest = useRef<Locale | null>(null);

  const choose = async (chosen: Locale) => {
    latest.current = chosen;
    setPicked(chosen);
    try {
      await loadLocale(chosen);
    } catch {
      // Its texts could not be fetched (offline): the select shows the language still in use.
      if (latest.current === chosen) setPicked(null);
      showFlash(t('settings.language-save-failed'), 'danger');
      return;
    }
    // A later pick made while this one loaded is the one that counts.
    if (latest.current !== chosen) return;
    await changeLocale(chosen);
    setPicked(null);
    try {
      await save.mutateAsync(chosen);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showFlash(t('settings.language-save-failed'), 'danger');
    }
  };

  return (
    <div className="mb-4">
      <label htmlFor="account-language" className="form-label">
        {t('settings.language')}
      </label>
      <select
        id="account-language"
        className="form-select"
        value={picked ?? locale}
        aria-describedby="account-language-help"
        onChange={(event) => {
          const chosen = event.target.value;
          if (isLocale(chosen)) void choose(chosen);
        }}
      >
        {locales.map((option) => (
          <option key={option} value={option} lang={option}>
            {localeNames[option]}
          </option>
        ))}
      </select>
      <div id="account-language-help" className="form-text">
        {t('settings.language-help')}
      </div>
    </div>
  );
}
