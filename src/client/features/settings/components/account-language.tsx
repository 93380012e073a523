import { localeNames, isLocale, locales, type Locale } from '../../../../shared/locales.ts';
import { useFlash } from '../../../components/flash.tsx';
import { changeLocale } from '../../../i18n/i18n.ts';
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

  const choose = async (chosen: Locale) => {
    await changeLocale(chosen);
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
        value={locale}
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
