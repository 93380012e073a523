// Makes assets/fonts/: the statement PDF's fonts, cut down to the characters a statement needs.
// Noto Sans KR Regular and Bold as the @expo-google-fonts/noto-sans-kr package ships them (two
// files of 6 MB in a package of 56.7 MB) write Hangul and most text; Noto Sans Regular and Bold
// (@expo-google-fonts/noto-sans) write the Latin, Greek and Cyrillic letters Noto Sans KR lacks
// (Ł, Ş, ı, ễ, Ж, Ω, ...). Rerun after changing the ranges below:
//   npm run fonts:subset
// The packages are fetched with `npm pack` into a temporary folder (they are not dependencies);
// the subset is made by HarfBuzz's hb-subset (the subset-font devDependency), keeping every
// layout feature of the glyphs kept, so digits, kerning and any later feature still work. Beside
// the fonts, statement-fonts.json lists the characters each kept, which the PDF reads to choose a
// font for each run of text.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { create } from 'fontkit';
import subsetFont from 'subset-font';

type Range = { name: string; from: number; to: number };

const outDir = path.resolve(import.meta.dirname, '../../assets/fonts');

/** Shared by both families: what any run of text may hold besides its letters. */
const common: Range[] = [
  { name: 'Basic Latin', from: 0x0020, to: 0x007e },
  { name: 'Latin-1 Supplement', from: 0x00a0, to: 0x00ff },
  { name: 'Latin Extended-A', from: 0x0100, to: 0x017f },
  // Accents typed as a letter and a combining mark ("E" + U+0301) rather than as "É".
  { name: 'Combining Diacritical Marks', from: 0x0300, to: 0x036f },
  { name: 'General Punctuation', from: 0x2000, to: 0x206f },
  { name: 'Currency Symbols', from: 0x20a0, to: 0x20cf },
  // Intl's minus sign in some locales.
  { name: 'Minus sign', from: 0x2212, to: 0x2212 },
];

/** What a statement shows: names, notes and addresses typed in Korean, Malay or English, money. */
export const koreanRanges: Range[] = [
  ...common,
  { name: 'Hangul Jamo', from: 0x1100, to: 0x11ff },
  // Korean keyboards type these too: 「」, 、。, the full-width forms (￦ among them).
  { name: 'CJK Symbols and Punctuation', from: 0x3000, to: 0x303f },
  { name: 'Hangul Compatibility Jamo', from: 0x3130, to: 0x318f },
  { name: 'Hangul Syllables', from: 0xac00, to: 0xd7a3 },
  { name: 'Halfwidth and Fullwidth Forms', from: 0xff00, to: 0xffef },
];

/** Every Latin, Greek and Cyrillic letter, with their marks: names from Warsaw to Hanoi. */
export const latinRanges: Range[] = [
  ...common,
  { name: 'Latin Extended-B', from: 0x0180, to: 0x024f },
  { name: 'IPA Extensions', from: 0x0250, to: 0x02af },
  { name: 'Spacing Modifier Letters', from: 0x02b0, to: 0x02ff },
  { name: 'Greek and Coptic', from: 0x0370, to: 0x03ff },
  { name: 'Cyrillic', from: 0x0400, to: 0x04ff },
  { name: 'Cyrillic Supplement', from: 0x0500, to: 0x052f },
  { name: 'Cyrillic Extended-C', from: 0x1c80, to: 0x1c8f },
  { name: 'Phonetic Extensions', from: 0x1d00, to: 0x1dbf },
  { name: 'Combining Diacritical Marks Supplement', from: 0x1dc0, to: 0x1dff },
  { name: 'Latin Extended Additional', from: 0x1e00, to: 0x1eff },
  { name: 'Greek Extended', from: 0x1f00, to: 0x1fff },
  { name: 'Latin Extended-C', from: 0x2c60, to: 0x2c7f },
  { name: 'Cyrillic Extended-A', from: 0x2de0, to: 0x2dff },
  { name: 'Cyrillic Extended-B', from: 0xa640, to: 0xa69f },
  { name: 'Latin Extended-D', from: 0xa720, to: 0xa7ff },
  { name: 'Latin Extended-E', from: 0xab30, to: 0xab6f },
  { name: 'Combining Half Marks', from: 0xfe20, to: 0xfe2f },
];

const families = [
  {
    source: '@expo-google-fonts/noto-sans-kr@0.4.3',
    licence: 'OFL.txt',
    ranges: koreanRanges,
    fonts: [
      { from: '400Regular/NotoSansKR_400Regular.ttf', to: 'NotoSansKR-Regular-statement.ttf' },
      { from: '700Bold/NotoSansKR_700Bold.ttf', to: 'NotoSansKR-Bold-statement.ttf' },
    ],
  },
  {
    source: '@expo-google-fonts/noto-sans@0.4.2',
    licence: 'NotoSans-OFL.txt',
    ranges: latinRanges,
    fonts: [
      { from: '400Regular/NotoSans_400Regular.ttf', to: 'NotoSans-Regular-statement.ttf' },
      { from: '700Bold/NotoSans_700Bold.ttf', to: 'NotoSans-Bold-statement.ttf' },
    ],
  },
];

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const textOf = (ranges: Range[]) =>
  ranges
    .flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i))
    .map((codePoint) => String.fromCodePoint(codePoint))
    .join('');

/** The code points a font has, as "20-7e,a0-ff,..." (hexadecimal, both ends included). */
function coverage(font: Buffer): string {
  const codePoints = [...new Set(create(font).characterSet)].sort((a, b) => a - b);
  const spans: string[] = [];
  for (let i = 0; i < codePoints.length;) {
    let j = i;
    while (j + 1 < codePoints.length && codePoints[j + 1] === codePoints[j]! + 1) j += 1;
    const from = codePoints[i]!.toString(16);
    spans.push(i === j ? from : `${from}-${codePoints[j]!.toString(16)}`);
    i = j + 1;
  }
  return spans.join(',');
}

const work = mkdtempSync(path.join(tmpdir(), 'balance-fonts-'));
const covered: Record<string, string> = {};
try {
  mkdirSync(outDir, { recursive: true });
  for (const family of families) {
    const tarball = execFileSync('npm', ['pack', family.source, '--silent'], { cwd: work })
      .toString()
      .trim();
    const unpacked = path.join(work, tarball.replace(/\.tgz$/, ''));
    mkdirSync(unpacked);
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked], { cwd: work });
    const packageDir = path.join(unpacked, 'package');
    copyFileSync(path.join(packageDir, 'LICENSE_FONT'), path.join(outDir, family.licence));
    const text = textOf(family.ranges);
    for (const { from, to } of family.fonts) {
      const original = readFileSync(path.join(packageDir, from));
      const subset = await subsetFont(original, text, { targetFormat: 'truetype' });
      writeFileSync(path.join(outDir, to), subset);
      covered[to] = coverage(subset);
      process.stdout.write(
        `${to}: ${original.length} -> ${subset.length} bytes\n` +
          `  from ${family.source}/${from} sha256 ${sha256(original)}\n` +
          `  sha256 ${sha256(subset)}\n`,
      );
    }
  }
  writeFileSync(path.join(outDir, 'statement-fonts.json'), `${JSON.stringify(covered, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
