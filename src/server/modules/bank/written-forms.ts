// What people write around a name or a charge's reference in a transfer's text, which the
// book does not hold: a company's legal form (주식회사, (주), SDN BHD, S/B), a Malay
// patronymic's "BIN" or "BINTI", a word before a number ("INVOICE 2231" for INV-2231), several
// charges in one memo ("청구-2026-014,052"). Each helper works on folded text (foldText) and
// gives more ways to read it; the matcher keeps the text as written too, so nothing a name holds
// is lost (issue 57, docs/decisions/030-payments-from-the-bank.md).

// Korean legal forms, written out, abbreviated in brackets (㈜ folds to "(주)") or after the name,
// and the representative's title before a person's name. Longest first.
const koreanForms = [
  '유한책임회사',
  '주식회사',
  '유한회사',
  '합자회사',
  '합명회사',
  '사단법인',
  '재단법인',
  '대표이사',
  '대표자',
  '대표',
  '(주)',
  '(유)',
  '(합)',
  '(사)',
  '(재)',
  '주)',
  '(주',
];
const koreanForm = new RegExp(
  koreanForms.map((form) => form.replace(/[()]/g, (bracket) => `\\${bracket}`)).join('|'),
  'gu',
);

// Legal forms and connecting words written in Latin letters, as whole words: Malaysian "SDN BHD"
// however punctuated, "S/B", "BHD", "BERHAD", "PLT"; the usual English ones; a Malay or Indian
// patronymic's "BIN", "BINTI", "B.", "BT", "A/L", "A/P". Each is a word the book's names leave out.
const latinForms = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:sdn\.?\s*bhd\.?|s\s*/\s*b|bhd\.?|berhad|plt|` +
    String.raw`pte\.?\s*ltd\.?|co\.?\s*,?\s*ltd\.?|ltd\.?|inc\.?|corp\.?|llc|` +
    String.raw`bin|binti|bte|bt\.?|b\.|a\s*/\s*[lp]|s\s*/\s*o|d\s*/\s*o)(?![\p{L}\p{N}])|` +
    // A lone "B" between two words: "AHMAD FAIZ B RAHMAN".
    String.raw`(?<=\p{L}\s)b(?=\s\p{L})`,
  'gu',
);

/** The text with legal forms and patronymic words made spaces; the text itself when it has none. */
export function withoutLegalForms(folded: string): string {
  return folded.replace(koreanForm, ' ').replace(latinForms, ' ');
}

// A word naming a charge written out or with its number sign: "INVOICE 2231", "INV NO. 2231",
// "INV# 2231" all read as "INV 2231"; "청구서" as "청구".
const referenceWords: [RegExp, string][] = [
  [/(?<![\p{L}\p{N}])invoice(?:\s*(?:no\.?|number|#))?/gu, 'inv'],
  [/(?<![\p{L}\p{N}])inv\s*(?:no\.?|number|#)/gu, 'inv'],
  [/청구서(?:\s*번호)?/gu, '청구'],
];

// A reference followed by more numbers of the same series: "INV-2210/2214", "청구-2026-014,052",
// "INV-2210 & 11". The first must hold a letter or a hyphen before its last number, so that a
// date (2026/03/01) or an amount (1,000) is not read as a series.
const series =
  /([\p{L}\p{N}]*(?:\p{L}|-)[\p{L}\p{N}-]*?)(\d+)((?:\s*(?:[,/&+]|and|dan|및)\s*\d+)+)/gu;

/**
 * The references a text may hold besides its words, letters and digits only: each number of a
 * series with the series' prefix ("inv2214" from "INV-2210/2214"), and the text's words as
 * "INVOICE 2231" means them. Folded text in, compact strings out.
 */
export function writtenReferences(folded: string): string[] {
  let text = folded;
  for (const [word, short] of referenceWords) text = text.replace(word, short);
  const found: string[] = [];
  const compact = (part: string) => part.replace(/[^\p{L}\p{N}]/gu, '');
  for (const match of text.matchAll(series)) {
    const [, prefix = '', first = '', rest = ''] = match;
    const base = compact(prefix) + first;
    found.push(base);
    for (const [number] of rest.matchAll(/\d+/g))
      if (number.length <= base.length)
        found.push(base.slice(0, base.length - number.length) + number);
  }
  // "inv 2231" as one word, however spaced.
  for (const match of text.matchAll(/(?<![\p{L}\p{N}])(inv|청구)[\s#.:-]*(\d[\d-]*)/gu))
    found.push(compact(`${match[1]}${match[2]}`));
  return found;
}

/**
 * A reference's number without the letters before it ("2026118" for 청구-2026-118, "2231" for
 * INV-2231), as a person may write it; null when the reference is not letters then a number.
 */
export function referenceNumber(compactReference: string): string | null {
  const match = /^\p{L}+(\d{4,})$/u.exec(compactReference);
  return match ? (match[1] ?? null) : null;
}
