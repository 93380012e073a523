import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Plugin } from 'vite';

const localesDir = path.resolve(import.meta.dirname, '..', 'src', 'client', 'locales');
const catalogueFile = /\/src\/client\/locales\/.+\.json$/;
const clientSource = /\/src\/client\/.+\.tsx?$/;
/** A key as the source writes it: 'area.some-name' in single or double quotes. */
const quotedKey = /(['"])([a-z][\w-]*(?:\.[\w-]+)+)\1/g;

/** Every key of the English catalogues, each with a short name of its own ("0", "1", … "1z"). */
function shortNames(): Map<string, string> {
  const keys = new Set<string>();
  for (const file of readdirSync(path.join(localesDir, 'en'), {
    recursive: true,
    encoding: 'utf8',
  })) {
    if (!file.endsWith('.json')) continue;
    const messages = JSON.parse(readFileSync(path.join(localesDir, 'en', file), 'utf8')) as object;
    for (const key of Object.keys(messages)) keys.add(key);
  }
  return new Map([...keys].sort().map((key, index) => [key, index.toString(36)]));
}

/**
 * Builds the browser's catalogues (src/client/locales/**.json, ICU MessageFormat): compiles
 * each message, so the app ships Lingui's compiled messages and no message parser, and gives
 * each key a short name in the catalogues and in the code alike, so a key like
 * 'dashboard.filter.owes-money' costs the first page two bytes, not twenty-seven, each place it
 * is written. Runs before Vite's JSON plugin and hands it JSON again. Development and tests
 * keep the keys as written (Lingui compiles there at run time).
 */
export function compileCatalogues(): Plugin {
  let names = new Map<string, string>();
  return {
    name: 'balance:compile-catalogues',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      names = shortNames();
    },
    transform(code, id) {
      if (catalogueFile.test(id)) {
        const messages = JSON.parse(code) as Record<string, string>;
        const compiled = Object.fromEntries(
          Object.entries(messages).map(([key, text]) => [
            names.get(key) ?? key,
            compileMessage(text),
          ]),
        );
        return { code: JSON.stringify(compiled), map: null };
      }
      if (clientSource.test(id) && !id.includes('/src/client/locales/')) {
        let changed = false;
        const renamed = code.replace(quotedKey, (whole, quote: string, key: string) => {
          const name = names.get(key);
          if (name === undefined) return whole;
          changed = true;
          return `${quote}${name}${quote}`;
        });
        // Same length per line is not kept; source maps of these files point a little off.
        return changed ? { code: renamed, map: null } : null;
      }
      return null;
    },
  };
}
