import { useEffect, useRef } from 'react';
import { useMutation } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { Locale } from '../../../../shared/locales.ts';
import type { SessionResponse } from '../../../../shared/schemas/auth.ts';
import { changeLocale } from '../../../i18n/i18n.ts';
import { callApi } from '../../../lib/api-client.ts';

/** Keeps the language with the account; null follows each browser's own. */
export function useSaveLanguage() {
  return useMutation({
    mutationFn: (language: Locale | null) =>
      callApi(apiRoutes.saveLanguage, { body: { language } }),
  });
}

/**
 * Shows the app in the account's language when someone signs in, or when the app starts signed
 * in, on whatever device. Only then: a choice made on this device since stays until the next
 * sign-in, and the Settings screen keeps the account up to date with it.
 */
export function useAccountLanguage(session: SessionResponse | undefined): void {
  const userId = session?.user?.id ?? null;
  const language = session?.user ? session.language : undefined;
  const appliedFor = useRef<string | null>(null);
  useEffect(() => {
    if (userId === null || appliedFor.current === userId) {
      appliedFor.current = userId;
      return;
    }
    appliedFor.current = userId;
    // Texts that cannot be fetched (offline) leave the app in the language it shows.
    if (language) changeLocale(language).catch(() => undefined);
  }, [userId, language]);
}
