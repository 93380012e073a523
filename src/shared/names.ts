/**
 * People's names as Balance checks and shows them. Names are kept as typed, in two parts; what
 * changes with the script they are written in is the shortest part allowed and the order shown.
 */

// Hangul, Han and Kana write a whole syllable or word in one character: 김, 李 and の are names.
const syllabicScript =
  /^[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+$/u;
const hangul = /^\p{Script=Hangul}+$/u;

/** True when every character of the name part is Hangul, Han or Kana. */
export function isSyllabicName(text: string): boolean {
  return syllabicScript.test(text);
}

/**
 * The full name as people read it: a Korean name (both parts in Hangul) family name first with
 * no space (김서연); any other given name first ("Ada Lovelace").
 */
export function displayName({ firstName, lastName }: { firstName: string; lastName: string }) {
  const given = firstName.trim();
  const family = lastName.trim();
  if (hangul.test(given) && hangul.test(family)) return `${family}${given}`;
  return [given, family].filter((part) => part !== '').join(' ');
}

// Letters whose mark is part of the letter, so that no decomposition takes it off: read as the
// plain letters a reader of English or Malay would type for them.
const lettersWithoutDecomposition: Record<string, string> = {
  ł: 'l',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ŀ: 'l',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  þ: 'th',
};
const withoutDecomposition = new RegExp(
  `[${Object.keys(lettersWithoutDecomposition).join('')}]`,
  'gu',
);
// Only the marks Latin, Greek and Cyrillic letters decompose into: the marks of other scripts
// (Kana's voicing marks, Indic vowel signs) change the letter, and are kept.
const diacritics = /[\u0300-\u036f]/gu;

/**
 * Text folded the way a reader of English, Malay or Korean compares names: compatibility forms
 * made plain (ﬁ, full-width letters), accents taken off (É → e, Å → a, Ł → l), lower case.
 * Hangul, Han and Kana stay as they are (composed again after the decomposition), so they keep
 * their own order. The three languages lower-case alike, so the key does not depend on which of
 * them the owner reads (docs/decisions/025-names-sorted-by-a-folded-key.md).
 */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(diacritics, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(withoutDecomposition, (letter) => lettersWithoutDecomposition[letter] ?? letter);
}

/**
 * The key the client list sorts names by and searches them in: the name as it is shown (a
 * Korean name family name first), folded. Every writer of a client row stores it.
 */
export function nameSortKey(name: { firstName: string; lastName: string }): string {
  return foldText(displayName(name));
}
