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
 * Between a business client's company and its contact person in the sort key: below every
 * character a name may hold, so "Acme" (and its contact) sorts before "Acme Trading", and no
 * search can match across it (a search refuses control characters).
 */
const companySeparator = '\u0001';

/**
 * The key the client list sorts names by and searches them in: the name as it is shown (a
 * Korean name family name first), folded; for a business, its company's name folded, then the
 * contact person's (docs/decisions/038-business-clients.md). Every writer of a client row stores it.
 */
export function nameSortKey(name: {
  firstName: string;
  lastName: string;
  company?: string | undefined;
}): string {
  const person = foldText(displayName(name));
  const company = name.company?.trim() ?? '';
  return company === '' ? person : `${foldText(company)}${companySeparator}${person}`;
}

/** A client as the owner and the client read it: a business by its company, a person by name. */
export function clientName(client: {
  firstName: string;
  lastName: string;
  company?: string | undefined;
}): string {
  const company = client.company?.trim() ?? '';
  return company === '' ? displayName(client) : company;
}

/**
 * A billing address as printed, one line each: the address lines, the postcode before the city
 * (as Malaysia and most of Europe write it; "50450 Kuala Lumpur"), the country. Empty parts left out.
 */
export function addressLines(address: {
  addressLine1: string;
  addressLine2: string;
  city: string;
  postcode: string;
  country: string;
}): string[] {
  return [
    address.addressLine1,
    address.addressLine2,
    [address.postcode, address.city].filter((part) => part.trim() !== '').join(' '),
    address.country,
  ]
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Whom a statement is addressed to, in the order its "To" block prints them: the company (or the
 * person) in bold, the contact person under a company, the billing address, the tax id.
 */
export function statementRecipient(client: {
  firstName: string;
  lastName: string;
  company: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  postcode: string;
  country: string;
  taxId: string;
}): { name: string; contact: string | null; address: string[]; taxId: string | null } {
  const company = client.company.trim();
  const taxId = client.taxId.trim();
  return {
    name: company === '' ? displayName(client) : company,
    contact: company === '' ? null : displayName(client),
    address: addressLines(client),
    taxId: taxId === '' ? null : taxId,
  };
}
