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
