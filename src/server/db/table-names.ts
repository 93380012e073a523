/** Matches SQL that names one of `tables`, as a whole word in any case. */
export function namingTables(tables: readonly string[]): RegExp {
  return new RegExp(`\\b(?:${tables.join('|')})\\b`, 'i');
}
