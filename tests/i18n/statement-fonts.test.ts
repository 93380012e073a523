import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';
import { describe, expect, it } from 'vitest';
import { writtenDay } from '../../src/shared/dates.ts';
import { intlLocales, locales } from '../../src/shared/locales.ts';
import ko from '../../src/shared/messages/ko.json' with { type: 'json' };
import ms from '../../src/shared/messages/ms.json' with { type: 'json' };
import { currencies, formatMoney } from '../../src/shared/money.ts';

// The statement PDF's fonts are a subset (assets/fonts/README.md): whatever the statement itself
// writes, and the letters a client's name may hold, must have survived the cut.
const require = createRequire(import.meta.url);
const fonts: [string, Font][] = ['Regular', 'Bold'].map((weight) => [
  weight,
  create(readFileSync(require.resolve(`#fonts/NotoSansKR-${weight}-statement.ttf`))),
]);

function missing(font: Font, text: string): string[] {
  const lacking = new Set<string>();
  for (const character of text)
    if (!/\s/.test(character) && !font.hasGlyphForCodePoint(character.codePointAt(0)!))
      lacking.add(`${character} U+${character.codePointAt(0)!.toString(16).toUpperCase()}`);
  return [...lacking];
}

function range(from: number, to: number): string {
  return Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join('');
}

/** What the statement writes of its own: labels in each language, money and days. */
function statementText(): string {
  let text = [ko, ms]
    .flatMap((catalogue) => [...Object.keys(catalogue), ...Object.values(catalogue)])
    .join('');
  for (const locale of locales) {
    for (const currency of currencies)
      for (const minor of [-123_456_789_012n, -5n, 0n, 7n, 98_765_432_109n])
        text += formatMoney(minor, currency, intlLocales[locale]);
    for (let month = 1; month <= 12; month += 1)
      text += writtenDay(`2025-${String(month).padStart(2, '0')}-28`, intlLocales[locale]);
  }
  return text;
}

describe.each(fonts)('the statement font, %s', (_weight, font) => {
  it('has every Hangul syllable, and the jamo', () => {
    expect(missing(font, range(0xac00, 0xd7a3))).toEqual([]);
    expect(missing(font, range(0x1100, 0x11ff) + range(0x3131, 0x318e))).toEqual([]);
  });

  it('has Latin with the accents of Western European and Malay names, and the currency signs', () => {
    expect(missing(font, range(0x20, 0x7e) + range(0xa0, 0xff))).toEqual([]);
    expect(missing(font, 'Émilie Nurul Aïsyah Ōsaka Đinh ₩$€£¥')).toEqual([]);
  });

  it('has every character of the statement’s own text in each language', () => {
    expect(missing(font, statementText())).toEqual([]);
  });

  it('gives the ten digits one width, so figures line up in columns', () => {
    const widths = new Set(
      range(0x30, 0x39)
        .split('')
        .map((digit) => font.glyphForCodePoint(digit.codePointAt(0)!).advanceWidth),
    );
    expect(widths.size).toBe(1);
  });
});

describe.each(['Regular', 'Bold'])('the statement’s Latin font, %s', (weight) => {
  const font = create(readFileSync(require.resolve(`#fonts/NotoSans-${weight}-statement.ttf`)));

  it('draws every Latin, Greek and Cyrillic letter Unicode had by 2020, so no name prints blank', () => {
    const blocks = [
      range(0x0100, 0x024f),
      range(0x1e00, 0x1eff),
      range(0x0370, 0x03e1) + range(0x03f0, 0x03ff),
      range(0x1f00, 0x1fff),
      range(0x0400, 0x052f),
    ].join('');
    const letters = [...blocks].filter((character) => /\p{L}/u.test(character)).join('');
    expect(missing(font, letters)).toEqual([]);
  });

  it('is listed in statement-fonts.json with exactly the characters it has', () => {
    const listed = JSON.parse(
      readFileSync(require.resolve('#fonts/statement-fonts.json')).toString(),
    ) as Record<string, string>;
    for (const [file, spans] of Object.entries(listed)) {
      const listedFont = create(readFileSync(require.resolve(`#fonts/${file}`)));
      const count = spans.split(',').reduce((sum, span) => {
        const [from, to = from] = span.split('-').map((hex) => Number.parseInt(hex, 16));
        return sum + to! - from! + 1;
      }, 0);
      expect(count).toBe(new Set(listedFont.characterSet).size);
    }
  });
});
