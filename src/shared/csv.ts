/**
 * Spreadsheet programs run a cell that starts with = + - or @ as a formula, so text from the
 * database could run as one when an exported file is opened. Such text gets a leading
 * apostrophe, which spreadsheets hide and our import takes off again.
 */
// Apostrophes already in front count too, so that taking one off on import is never ambiguous.
const formulaStart = /^'*[=+\-@\t\r]/;

export function protectCell(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

export function unprotectCell(text: string): string {
  return text.startsWith("'") && formulaStart.test(text.slice(1)) ? text.slice(1) : text;
}
