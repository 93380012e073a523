// Makes assets/fonts/: the statement PDF's two fonts, cut down to the characters a statement
// needs, from Noto Sans KR Regular and Bold as the @expo-google-fonts/noto-sans-kr package ships
// them (two files of 6 MB in a package of 56.7 MB). Rerun after changing the ranges below:
//   npm run fonts:subset
// The package is fetched with `npm pack` into a temporary folder (it is not a dependency); the
// subset is made by HarfBuzz's hb-subset (the subset-font devDependency), keeping every layout
// feature of the glyphs kept, so digits, kerning and any later feature (tnum, ...) still work.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import subsetFont from 'subset-font';

const source = '@expo-google-fonts/noto-sans-kr@0.4.3';
const outDir = path.resolve(import.meta.dirname, '../../assets/fonts');
const fonts = [
  { from: '400Regular/NotoSansKR_400Regular.ttf', to: 'NotoSansKR-Regular-statement.ttf' },
  { from: '700Bold/NotoSansKR_700Bold.ttf', to: 'NotoSansKR-Bold-statement.ttf' },
];

/** What a statement shows: names, notes and addresses typed in Korean, Malay or English, money. */
export const ranges: { name: string; from: number; to: number }[] = [
  { name: 'Basic Latin', from: 0x0020, to: 0x007e },
  { name: 'Latin-1 Supplement', from: 0x00a0, to: 0x00ff },
  { name: 'Latin Extended-A', from: 0x0100, to: 0x017f },
  // Accents typed as a letter and a combining mark ("E" + U+0301) rather than as "É".
  { name: 'Combining Diacritical Marks', from: 0x0300, to: 0x036f },
  { name: 'Hangul Jamo', from: 0x1100, to: 0x11ff },
  { name: 'General Punctuation', from: 0x2000, to: 0x206f },
  { name: 'Currency Symbols', from: 0x20a0, to: 0x20cf },
  // Intl's minus sign in some locales.
  { name: 'Minus sign', from: 0x2212, to: 0x2212 },
  // Korean keyboards type these too: 「」, 、。, the full-width forms (￦ among them).
  { name: 'CJK Symbols and Punctuation', from: 0x3000, to: 0x303f },
  { name: 'Hangul Compatibility Jamo', from: 0x3130, to: 0x318f },
  { name: 'Hangul Syllables', from: 0xac00, to: 0xd7a3 },
  { name: 'Halfwidth and Fullwidth Forms', from: 0xff00, to: 0xffef },
];

function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const text = ranges
  .flatMap(({ from, to }) => Array.from({ length: to - from + 1 }, (_, i) => from + i))
  .map((codePoint) => String.fromCodePoint(codePoint))
  .join('');

const work = mkdtempSync(path.join(tmpdir(), 'balance-fonts-'));
try {
  const tarball = execFileSync('npm', ['pack', source, '--silent'], { cwd: work })
    .toString()
    .trim();
  execFileSync('tar', ['-xzf', tarball], { cwd: work });
  const packageDir = path.join(work, 'package');
  mkdirSync(outDir, { recursive: true });
  copyFileSync(path.join(packageDir, 'LICENSE_FONT'), path.join(outDir, 'OFL.txt'));
  for (const { from, to } of fonts) {
    const original = readFileSync(path.join(packageDir, from));
    const subset = await subsetFont(original, text, { targetFormat: 'truetype' });
    writeFileSync(path.join(outDir, to), subset);
    process.stdout.write(
      `${to}: ${original.length} -> ${subset.length} bytes\n` +
        `  from ${source}/${from} sha256 ${sha256(original)}\n` +
        `  sha256 ${sha256(subset)}\n`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
