import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

/**
 * Compiles the browser's catalogues (src/client/locales/**.json, ICU MessageFormat) when they
 * are built, so the app ships Lingui's compiled messages and no message parser. Runs before
 * Vite's JSON plugin and hands it JSON again.
 */
export function compileCatalogues(): Plugin {
  return {
    name: 'balance:compile-catalogues',
    enforce: 'pre',
    transform(code, id) {
      if (!/\/src\/client\/locales\/.+\.json$/.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(
        Object.entries(messages).map(([key, text]) => [key, compileMessage(text)]),
      );
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}
