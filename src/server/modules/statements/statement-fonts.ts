import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The PDF's two families (assets/fonts/README.md): Noto Sans KR writes Hangul and most text;
 * Noto Sans writes the Latin, Greek and Cyrillic letters Noto Sans KR lacks (Ł, Ş, ı, ễ, Ж, Ω),
 * which Noto Sans KR would leave blank.
 */
export type Family = 'korean' | 'latin';
export type Weight = 'regular' | 'bold';

export const fontFiles: Record<Family, Record<Weight, string>> = {
  korean: { regular: 'NotoSansKR-Regular-statement.ttf', bold: 'NotoSansKR-Bold-statement.ttf' },
  latin: { regular: 'NotoSans-Regular-statement.ttf', bold: 'NotoSans-Bold-statement.ttf' },
};

export function readFont(file: string): Buffer {
  return readFileSync(require.resolve(`#fonts/${file}`));
}

/** "20-7e,a0-ff": what `npm run fonts:subset` wrote of the characters each font kept. */
function characterSet(spans: string): Set<number> {
  const set = new Set<number>();
  for (const span of spans.split(',')) {
    const [from, to = from] = span.split('-').map((hex) => Number.parseInt(hex, 16));
    for (let codePoint = from!; codePoint <= to!; codePoint += 1) set.add(codePoint);
  }
  return set;
}

let covered: Record<Family, Set<number>> | null = null;
/** Both weights of a family keep the same characters; the regular one stands for both. */
function coverage(): Record<Family, Set<number>> {
  if (!covered) {
    const listed = JSON.parse(readFont('statement-fonts.json').toString()) as Record<
      string,
      string
    >;
    covered = {
      korean: characterSet(listed[fontFiles.korean.regular] ?? ''),
      latin: characterSet(listed[fontFiles.latin.regular] ?? ''),
    };
  }
  return covered;
}

export interface Run {
  family: Family;
  text: string;
}

/** A letter with the marks that follow it: one font must draw them together. */
const clusters = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * The text cut into runs of one family each. Text Noto Sans KR can write wholly stays in it, so a
 * statement without such letters looks as it did; text Noto Sans can write wholly goes to it;
 * otherwise each word is written in one face where one has all its letters ("Łódź 지점" in two
 * runs), and letter by letter only where neither has (a word mixing Hangul and "ễ").
 */
export function fontRuns(text: string): Run[] {
  const fonts = coverage();
  const normalised = text.normalize('NFC');
  const has = (family: Family, part: string) => {
    for (const character of part)
      if (!/\s/.test(character) && !fonts[family].has(character.codePointAt(0)!)) return false;
    return true;
  };
  const familyOf = (part: string): Family | null =>
    has('korean', part) ? 'korean' : has('latin', part) ? 'latin' : null;
  const whole = familyOf(normalised);
  if (whole) return [{ family: whole, text: normalised }];
  const runs: Run[] = [];
  const add = (family: Family, part: string) => {
    const last = runs.at(-1);
    if (last && (last.family === family || /^\s+$/.test(part))) last.text += part;
    else runs.push({ family, text: part });
  };
  for (const [word] of normalised.matchAll(/\s+|\S+/gu)) {
    const family = familyOf(word);
    if (family) add(family, word);
    else
      for (const [cluster] of word.matchAll(clusters)) add(familyOf(cluster) ?? 'korean', cluster);
  }
  return runs;
}
