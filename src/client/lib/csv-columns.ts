/** A header cell as its words: "First name", "first_name" and "FIRSTNAME" alike; 거래 일자 too. */
const headerWord = (cell: string) => cell.toLowerCase().replace(/[^\p{L}]/gu, '');

/**
 * Which column holds each field, guessed from a CSV file's header: the first column whose
 * header is one of the field's words (written without spacing or punctuation), else none.
 */
export function guessColumns<Field extends string>(
  header: readonly string[],
  words: Readonly<Record<Field, readonly string[]>>,
): Record<Field, number | null> {
  const cells = header.map(headerWord);
  const mapping = {} as Record<Field, number | null>;
  for (const field of Object.keys(words) as Field[]) {
    const index = cells.findIndex((cell) => words[field].includes(cell));
    mapping[field] = index >= 0 ? index : null;
  }
  return mapping;
}
