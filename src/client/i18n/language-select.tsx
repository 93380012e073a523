import { useId } from 'react';
import { isLocale, localeNames, locales, type Locale } from '../../shared/locales.ts';
import { changeLocale } from './i18n.ts';
import { useI18n } from './use-i18n.ts';

/**
 * A menu of the languages, each named in itself. Choosing one shows the app in it at once and
 * remembers it on this device; `onChosen` lets a signed-in page keep it with the account too.
 */
export function LanguageSelect({
  className,
  onChosen,
}: {
  className?: string;
  onChosen?: (locale: Locale) => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  return (
    <span className={className}>
      <label htmlFor={id} className="visually-hidden">
        {t('common.language')}
      </label>
      <select
        id={id}
        className="form-select form-select-sm"
        value={locale}
        onChange={(event) => {
          const chosen = event.target.value;
          if (!isLocale(chosen)) return;
          void changeLocale(chosen).then(() => onChosen?.(chosen));
        }}
      >
        {locales.map((option) => (
          <option key={option} value={option} lang={option}>
            {localeNames[option]}
          </option>
        ))}
      </select>
    </span>
  );
}
