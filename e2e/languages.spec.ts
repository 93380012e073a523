import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { walkScreens, type Say } from './screen-list.ts';

/**
 * Every screen walked in Korean and in Malay, the language taken from the browser as a new
 * visitor's would be: each shows its heading in that language, and no English text of the
 * catalogues is left on it (in what is shown, read out, or in the tab's title). Each language
 * walks them all in one test, a step per screen (screen-list.ts); the checks after a screen's
 * heading are soft, so one failure does not hide the next screen's.
 */

const localesDir = path.join(import.meta.dirname, '..', 'src', 'client', 'locales');

/** Every text of a language's catalogues, by key. */
function catalogue(language: string): Map<string, string> {
  const texts = new Map<string, string>();
  const dir = path.join(localesDir, language);
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.json')) continue;
    const messages = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Record<
      string,
      string
    >;
    for (const [key, text] of Object.entries(messages)) texts.set(key, text);
  }
  return texts;
}

/** The words a message writes itself, without what it fills in ("{count, plural, ...}"). */
function literalParts(message: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of message) {
    if (character === '{') {
      if (depth === 0) parts.push(current);
      current = '';
      depth += 1;
    } else if (character === '}') {
      depth = Math.max(0, depth - 1);
    } else if (depth === 0) {
      current += character;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

const english = catalogue('en');

/** English texts that would give a page away as untranslated: a phrase, or a longer word. */
function englishGiveaways(translated: Map<string, string>): string[] {
  const giveaways = new Set<string>();
  for (const [key, text] of english) {
    const translation = translated.get(key) ?? '';
    for (const part of literalParts(text)) {
      const phrase = /\p{L}+\s+\p{L}+/u.test(part);
      const longWord = /^\p{L}{5,}$/u.test(part);
      // A word both languages write alike ("CSV", the product's name) gives nothing away.
      if ((phrase || longWord) && !translation.includes(part) && part !== 'Balance') {
        giveaways.add(part);
      }
    }
  }
  return [...giveaways];
}

for (const { language, browserLocale, htmlLang } of [
  { language: 'ko', browserLocale: 'ko-KR', htmlLang: 'ko-KR' },
  { language: 'ms', browserLocale: 'ms-MY', htmlLang: 'ms-MY' },
]) {
  const translated = catalogue(language);
  const keyOf = new Map<string, string>();
  for (const [key, text] of english) if (!keyOf.has(text)) keyOf.set(text, key);
  const say: Say = (text) => {
    const key = keyOf.get(text);
    if (key) return translated.get(key) ?? text;
    // A text with a value filled in ("Welcome to Balance" of "Welcome to {brand}").
    for (const [templateKey, template] of english) {
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      if (names.length === 0 || /\{\w+,/.test(template)) continue;
      const pattern = template
        .split(/\{\w+\}/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('(.+)');
      const match = new RegExp(`^${pattern}$`).exec(text);
      const target = translated.get(templateKey);
      if (!match || !target) continue;
      return names.reduce(
        (result, name, index) => result.replace(`{${name}}`, match[index + 1]!),
        target,
      );
    }
    return text;
  };
  const giveaways = englishGiveaways(translated);

  test.describe(`every screen in ${language}`, () => {
    test.use({ locale: browserLocale, viewport: { width: 1280, height: 800 } });

    test('each screen is in the language, with no English left', async ({ page }, testInfo) => {
      await walkScreens(page, testInfo, async (screen, seeded) => {
        const target = typeof screen.path === 'string' ? screen.path : screen.path(seeded);
        await page.goto(target);
        const heading = typeof screen.heading === 'string' ? say(screen.heading) : screen.heading;
        await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible({
          timeout: 20_000,
        });
        await screen.prepare?.(page, say);
        await expect.soft(page.locator('html'), screen.name).toHaveAttribute('lang', htmlLang);

        const shown = await page.evaluate(() => {
          const attributes = [
            ...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]'),
          ].flatMap((element) =>
            ['aria-label', 'title', 'placeholder', 'alt'].map(
              (name) => element.getAttribute(name) ?? '',
            ),
          );
          return [document.title, document.body.innerText, ...attributes].join('\n');
        });
        // Whole words only: an identifier such as the time zone America/Swift_Current is no
        // English sentence left behind.
        const left = giveaways.filter((text) =>
          new RegExp(
            `(?<![\\p{L}\\p{N}_])${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`,
            'u',
          ).test(shown),
        );
        expect.soft(left, `English left on "${screen.name}"`).toEqual([]);
      });
    });
  });
}
