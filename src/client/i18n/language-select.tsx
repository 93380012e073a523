import { useId, useRef, useState } from 'react';
import { isLocale, localeNames, locales, type Locale } from '../../shared/locales.ts';
import { changeLocale, loadLocale } from './i18n.ts';
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
  // The pick is shown from the moment it is made: bound to the shown language alone, the select
  // went back to the old one while the new one's texts loaded. A later pick wins.
  const [picked, setPicked] = useState<Locale | null>(null);
  const latest = useRef<Locale | null>(null);
  return (
    <span className={className}>
      <label htmlFor={id} className="visually-hidden">
        {t('common.language')}
      </label>
      <select
        id={id}
        className="form-select form-select-sm"
        value={picked ?? locale}
        onChange={(event) => {
          const chosen = event.target.value;
          if (!isLocale(chosen)) return;
          latest.current = chosen;
          setPicked(chosen);
          void loadLocale(chosen).then(
            async () => {
              if (latest.current !== chosen) return;
              await changeLocale(chosen);
              setPicked(null);
              onChosen?.(chosen);
            },
            // Its texts could not be fetched (offline): the select shows the language in use.
            () => {
              if (latest.current === chosen) setPicked(null);
            },
          );
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
