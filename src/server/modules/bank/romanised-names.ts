// A Korean client's name as a bank abroad or a Korean bank's English column writes it: "MINJUN
// KIM" for 김민준. Family names keep the spellings their bearers have used for generations (이
// is LEE far more often than the Revised Romanization's "I"), so they come from a table; given
// names are written by the Revised Romanization, syllable by syllable, as the rules for personal
// names ask (no sound changes across syllables: 국민 is "GUKMIN", not the word's "GUNGMIN").
// docs/decisions/030-payments-from-the-bank.md says what is matched and what is not.

/** The usual spellings of the common family names; any other is romanised like a given name. */
const familyNames: Record<string, readonly string[]> = {
  김: ['kim', 'gim'],
  이: ['lee', 'yi', 'rhee'],
  리: ['lee', 'yi', 'rhee'],
  박: ['park', 'pak'],
  최: ['choi', 'choe'],
  정: ['jung', 'jeong', 'chung'],
  강: ['kang'],
  조: ['cho', 'jo'],
  윤: ['yoon', 'yun'],
  장: ['jang', 'chang'],
  임: ['lim', 'im'],
  림: ['lim', 'im'],
  한: ['han'],
  오: ['oh'],
  서: ['seo', 'suh'],
  신: ['shin', 'sin'],
  권: ['kwon'],
  황: ['hwang'],
  안: ['ahn', 'an'],
  송: ['song'],
  류: ['ryu', 'yoo', 'yu'],
  유: ['ryu', 'yoo', 'yu'],
  홍: ['hong'],
  전: ['jeon', 'jun'],
  고: ['ko', 'go'],
  문: ['moon', 'mun'],
  양: ['yang'],
  손: ['son', 'sohn'],
  배: ['bae'],
  백: ['baek', 'paik'],
  허: ['heo', 'huh'],
  남: ['nam'],
  노: ['noh', 'no'],
  하: ['ha'],
  곽: ['kwak'],
  성: ['sung', 'seong'],
  차: ['cha'],
  주: ['joo', 'ju'],
  우: ['woo', 'u'],
  구: ['koo', 'gu'],
  민: ['min'],
  진: ['jin'],
  나: ['na'],
  엄: ['um', 'eom'],
  원: ['won'],
  천: ['chun', 'cheon'],
  방: ['bang'],
  공: ['kong', 'gong'],
  현: ['hyun'],
  함: ['ham'],
  변: ['byun'],
  염: ['yeom'],
  여: ['yeo'],
  추: ['choo'],
  도: ['do'],
  소: ['so'],
  석: ['seok'],
  선: ['sun'],
  설: ['seol'],
  마: ['ma'],
  길: ['gil'],
  연: ['yeon'],
  위: ['wi'],
  표: ['pyo'],
  명: ['myung'],
  기: ['ki'],
  반: ['ban'],
  왕: ['wang'],
  금: ['keum'],
  옥: ['ok'],
  육: ['yuk'],
  인: ['in'],
  맹: ['maeng'],
  제: ['je'],
  모: ['mo'],
  남궁: ['namgung'],
  탁: ['tak'],
  국: ['kook'],
  어: ['eo'],
  은: ['eun'],
  편: ['pyun'],
  용: ['yong'],
  예: ['ye'],
  경: ['kyung'],
  봉: ['bong'],
  사: ['sa'],
  부: ['boo'],
  황보: ['hwangbo'],
  가: ['ka'],
  복: ['bok'],
  태: ['tae'],
  목: ['mok'],
  형: ['hyung'],
  피: ['pi'],
  두: ['doo'],
  감: ['kam'],
  제갈: ['jegal'],
  음: ['eum'],
  빈: ['bin'],
  동: ['dong'],
  온: ['on'],
  호: ['ho'],
  범: ['beom'],
  좌: ['jwa'],
  팽: ['paeng'],
  승: ['seung'],
  간: ['gan'],
  상: ['sang'],
  시: ['si'],
  갈: ['gal'],
  서문: ['seomun'],
  독고: ['dokgo'],
};

// Hangul syllables only: a name with a lone letter (ㄱ) or in old Hangul is not romanised.
const hangulOnly = /^[\uac00-\ud7a3]+$/;

// The Revised Romanization of one syllable, as it is written on its own: its first consonant,
// its vowel and its last consonant (which a syllable's end says as one of k, n, t, l, m, p, ng).
const initials = 'g kk n d tt r m b pp s ss - j jj ch k t p h'.split(' ');
const vowels = 'a ae ya yae eo e yeo ye o wa wae oe yo u wo we wi yu eu ui i'.split(' ');
const finals = '- k k k n n n t l k m l l l p l m p p t t ng t t k t p -'.split(' ');
const firstSyllable = 0xac00;
const lastSyllable = 0xd7a3;
const syllable = (character: string) => {
  const code = character.codePointAt(0) ?? 0;
  if (code < firstSyllable || code > lastSyllable) return '';
  const index = code - firstSyllable;
  const initial = initials[Math.floor(index / 588)] as string;
  const vowel = vowels[Math.floor((index % 588) / 28)] as string;
  const final = finals[index % 28] as string;
  return (initial === '-' ? '' : initial) + vowel + (final === '-' ? '' : final);
};

/** A given name by the Revised Romanization, each syllable on its own: 민준 is "minjun". */
const romanisedGivenName = (hangul: string) => [...hangul].map(syllable).join('');

// How people spell a syllable of their given name in passports and bank accounts besides the
// Revised Romanization: the older "u" for eo (현 HYUN, 석 SUK), "oo" for u (준 JOON, 수 SOO),
// "woo" for 우, "young" for 영, "hee" for 희, "k" for a first g (경 KYUNG).
const spellingsOf = (written: string): string[] => {
  const spellings = new Set([written]);
  const add = (from: RegExp, to: string) => {
    for (const each of [...spellings]) spellings.add(each.replace(from, to));
  };
  add(/^u(?=$|[nkmlp]|ng)/, 'woo');
  add(/yeong$/, 'young');
  add(/eo/, 'u');
  add(/^(.?)u(?=$|[nkmlp]|ng)/, '$1oo');
  add(/ui$/, 'ee');
  add(/^g/, 'k');
  return [...spellings];
};

/** A given name's usual spellings, syllable by syllable; at most `limit` of them. */
function givenNameSpellings(hangul: string, limit = 32): string[] {
  let names = [''];
  for (const character of hangul) {
    const spellings = spellingsOf(syllable(character));
    names = names.flatMap((name) => spellings.map((spelling) => name + spelling)).slice(0, limit);
  }
  return names;
}

/** The spellings of a family name: the usual ones, and the Revised Romanization's. */
function romanisedFamilyNames(hangul: string): string[] {
  const written = romanisedGivenName(hangul);
  const usual = familyNames[hangul] ?? [];
  return usual.includes(written) ? [...usual] : [...usual, written];
}

/**
 * A client's name split into family and given name when it is written in Hangul: both parts
 * in Hangul, or the whole name in one part ("김민준": the family name is its first syllable,
 * or its first two when they make one of the two-syllable family names). Null otherwise.
 */
function koreanName(first: string, last: string): { family: string; given: string } | null {
  const given = first.normalize('NFC').replace(/\s+/g, '');
  const family = last.normalize('NFC').replace(/\s+/g, '');
  if (given !== '' && family !== '')
    return hangulOnly.test(given) && hangulOnly.test(family) ? { family, given } : null;
  const whole = given || family;
  const length = [...whole].length;
  if (!hangulOnly.test(whole) || length < 2 || length > 5) return null;
  // "남궁" alone is a family name with no given name: one syllable each.
  const split = length >= 3 && Object.hasOwn(familyNames, whole.slice(0, 2)) ? 2 : 1;
  return { family: whole.slice(0, split), given: whole.slice(split) };
}

/** Every way a bank may write the name in Latin letters, folded and unspaced, in both orders. */
export function romanisedNames(first: string, last: string): string[] {
  const name = koreanName(first, last);
  if (!name) return [];
  const givens = givenNameSpellings(name.given);
  return romanisedFamilyNames(name.family).flatMap((family) =>
    givens.flatMap((given) => [family + given, given + family]),
  );
}
