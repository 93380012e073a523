import { XMLParser, XMLValidator } from 'fast-xml-parser';
import iconv from 'iconv-lite';
import { fileProblem } from './bank-statement.ts';

// The XML of OFX 2 and camt.053 files, and OFX 1's SGML once made XML, read without trusting it:
// no DOCTYPE (so no entity of the file's own, no billion laughs), at most `xmlDepthLimit` levels,
// at most `xmlTagLimit` tags, and markup no larger than a statement's, counted in one pass before
// the parser sees the file (docs/decisions/030-payments-from-the-bank.md).

export const xmlDepthLimit = 64;
/** About 1 MiB of the parsed tree per 10,000 tags; a 20,000-line OFX file has some 400,000. */
const xmlTagLimit = 600_000;
/** OFX has no attributes; camt.053 has one or two on a tag (`Ccy`, and `xmlns` on its root). */
const xmlAttributesPerTag = 64;
/** camt.053 has an attribute on some amounts, one for every ten tags or fewer. */
const xmlAttributesSpare = 1_000;
/** OFX's names are at most 32 characters, ISO 20022's about 35. */
const xmlNameLimit = 64;
/** A namespace's URI, a currency: far shorter. */
const xmlValueLimit = 1_000;
/** camt.053's longest text is 500 characters (AddtlNtryInf), OFX's MEMO 255. */
const xmlTextLimit = 10_000;

export const tooDeep = () =>
  fileProblem('The file is nested too deeply (more than {count} levels).', {
    count: xmlDepthLimit,
  });

/** UTF-16, with its byte order mark or without (every other byte of its ASCII is a zero). */
export function refuseUtf16(bytes: Uint8Array): void {
  if (
    /^(?:\xFF\xFE|\xFE\xFF|[^\0]\0[^\0]\0|\0[^\0]\0[^\0])/.test(
      Buffer.from(bytes.subarray(0, 4)).toString('latin1'),
    )
  )
    throw fileProblem('The file is in UTF-16; save it as UTF-8.');
}

/**
 * The file's text in the encoding it declares (`label`, as written in its header); UTF-16 and
 * encodings we do not read are refused by name rather than read as garbage.
 */
export function decodeDeclared(bytes: Uint8Array, label: string): string {
  refuseUtf16(bytes);
  const name = label.trim().toLowerCase().replace(/^cp-?/, '');
  const refused = () =>
    fileProblem('The file is not in the encoding it declares ({encoding}).', {
      encoding: label.trim() || 'UTF-8',
    });
  if (['1252', 'windows-1252', 'iso-8859-1', '8859-1', 'latin1', 'iso8859-1'].includes(name))
    return new TextDecoder('windows-1252').decode(bytes);
  if (['949', 'euc-kr', 'ks_c_5601-1987'].includes(name)) {
    const text = iconv.decode(Buffer.from(bytes), 'cp949');
    if (text.includes('\uFFFD')) throw refused();
    return text;
  }
  if (!['', 'utf-8', 'utf8', 'usascii', 'us-ascii', 'none'].includes(name))
    throw fileProblem('The file is in {encoding}, which is not read; save it as UTF-8.', {
      encoding: label,
    });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refused();
  }
}

/** The encoding named in an XML declaration, or '' (UTF-8). */
export const xmlEncoding = (head: string) =>
  /^\uFEFF?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([\w.:-]{1,40})["']/.exec(head)?.[1] ?? '';

const parser = new XMLParser({
  processEntities: false,
  htmlEntities: false,
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // FITIDs and amounts stay text: "0012" is not 12.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: xmlDepthLimit,
});

/** No DOCTYPE, so no entity of the file's own to expand (a billion laughs, a file of the server). */
export function refuseDeclarations(text: string): void {
  if (/<!(DOCTYPE|ENTITY)/i.test(text))
    throw fileProblem('The file declares a DOCTYPE or entities, which are not read.');
}

/**
 * Refused before parsing when the file has more `name` elements (its transactions) than a
 * statement may have lines, so a long file is not first built in memory.
 */
export function refuseMoreThan(text: string, name: string, limit: number, tooMany: () => Error) {
  const element = new RegExp(`<(?:[\\w.-]+:)?${name}[\\s>]`, 'g');
  let count = 0;
  while (element.exec(text) !== null) if (++count > limit) throw tooMany();
}

const tooLongText = () =>
  fileProblem('The file has a text longer than {count} characters.', { count: xmlTextLimit });

/** A character that ends a tag's name: space, tab, CR, LF, quotes, `/`, `<`, `=`, `>`. */
const endsName = (code: number) =>
  code === 0x20 ||
  code === 0x09 ||
  code === 0x0d ||
  code === 0x0a ||
  code === 0x22 ||
  code === 0x27 ||
  code === 0x2f ||
  (code >= 0x3c && code <= 0x3e);

/**
 * The number of tags, after refusing markup larger than a statement's: more than `xmlTagLimit`
 * tags, a tag with more than `xmlAttributesPerTag` attributes, more attributes than one for every
 * two tags (and `xmlAttributesSpare`), a name, an attribute's value or a text (comments, CDATA
 * and processing instructions included) longer than its limit. One pass, each character looked at
 * once: the parser's time grows with what this lets through (issue 54: one tag of 380,000
 * attributes held the server for seconds).
 */
function refuseLargeMarkup(xml: string): number {
  const end = xml.length;
  let tags = 0;
  let attributes = 0;
  let at = 0;
  for (;;) {
    const open = xml.indexOf('<', at);
    if ((open === -1 ? end : open) - at > xmlTextLimit) throw tooLongText();
    if (open === -1) break;
    if (++tags > xmlTagLimit)
      throw fileProblem('The file has more than {count} tags.', { count: xmlTagLimit });
    const closer = xml.startsWith('<!--', open)
      ? '-->'
      : xml.startsWith('<![CDATA[', open)
        ? ']]>'
        : xml[open + 1] === '?'
          ? '?>'
          : xml[open + 1] === '!'
            ? '>'
            : null;
    if (closer !== null) {
      const closed = xml.indexOf(closer, open);
      at = closed === -1 ? end : closed + closer.length;
      if (at - open > xmlTextLimit) throw tooLongText();
      continue;
    }
    let index = xml[open + 1] === '/' ? open + 2 : open + 1;
    const name = index;
    while (index < end && !endsName(xml.charCodeAt(index))) index++;
    if (index - name > xmlNameLimit)
      throw fileProblem('The file has a tag name longer than {count} characters.', {
        count: xmlNameLimit,
      });
    let count = 0;
    while (index < end) {
      const character = xml[index];
      if (character === '>' || character === '<') break;
      if (character === '"' || character === "'") {
        const closed = xml.indexOf(character, index + 1);
        const after = closed === -1 ? end : closed;
        if (after - index - 1 > xmlValueLimit)
          throw fileProblem('The file has an attribute value longer than {count} characters.', {
            count: xmlValueLimit,
          });
        index = after + 1;
        continue;
      }
      if (character === '=' && ++count > xmlAttributesPerTag)
        throw fileProblem('The file has a tag with more than {count} attributes.', {
          count: xmlAttributesPerTag,
        });
      index++;
    }
    attributes += count;
    // A `<` inside a tag is the validator's to place; the next round starts at it.
    at = xml[index] === '>' ? index + 1 : index;
  }
  if (attributes > tags / 2 + xmlAttributesSpare)
    throw fileProblem(
      'The file has more attributes than a statement has (more than one for every two tags).',
    );
  return tags;
}

/**
 * Whether elements open more than `xmlDepthLimit` deep, counted roughly (comments, CDATA and
 * declarations skipped; an element that closes itself opens nothing): for a file that is not
 * well-formed, whose problem is told as its depth when that is what it is.
 */
function nestedTooDeeply(xml: string): boolean {
  let depth = 0;
  let at = xml.indexOf('<');
  while (at !== -1) {
    if (xml.startsWith('<!--', at)) at = xml.indexOf('-->', at);
    else if (xml.startsWith('<![CDATA[', at)) at = xml.indexOf(']]>', at);
    else if (xml[at + 1] === '/') depth--;
    else if (/[\p{L}_:]/u.test(xml[at + 1] ?? '')) {
      const end = xml.indexOf('>', at);
      if (end === -1) return false;
      if (xml[end - 1] !== '/' && ++depth > xmlDepthLimit) return true;
      at = end;
    }
    if (at === -1) return false;
    at = xml.indexOf('<', at + 1);
  }
  return false;
}

/** A well-formed XML document as plain objects; element text stays as written (see `text`). */
export function readXml(xml: string, notTheFormat: () => Error): Record<string, unknown> {
  refuseDeclarations(xml);
  if (refuseLargeMarkup(xml) === 0) throw notTheFormat();
  // The validator walks with a stack of its own: 100,000 levels are no stack overflow.
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    // A file nested too deeply is said to be, closed or not.
    if (nestedTooDeeply(xml)) throw tooDeep();
    throw fileProblem('The file is not well-formed XML (line {line}, column {column}).', {
      line: valid.err.line,
      column: valid.err.col,
    });
  }
  try {
    return parser.parse(xml) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof Error && /nested tags/i.test(error.message)) throw tooDeep();
    throw notTheFormat();
  }
}

/** The element at `path` below `node` (the first of repeated ones), or undefined. */
export function at(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const name of path) {
    if (Array.isArray(current)) current = current[0];
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, name))
      return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

/** Every element at `path` below `node`, repeated ones at any step included. */
export function all(node: unknown, ...path: string[]): unknown[] {
  let current = [node];
  for (const name of path)
    current = current.flatMap((item) => {
      const next = at(item, name);
      return next === undefined ? [] : Array.isArray(next) ? (next as unknown[]) : [next];
    });
  return current;
}

const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const character = (code: number) =>
  code > 0x1f && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
    ? String.fromCodePoint(code)
    : ' ';

/**
 * An element's text with XML's own five entities and character references read (the parser's
 * entity processing is off); control characters become spaces, runs of spaces one.
 */
export function text(node: unknown): string {
  const raw =
    typeof node === 'string'
      ? node
      : node !== null && typeof node === 'object' && Object.hasOwn(node, '#text')
        ? String((node as Record<string, unknown>)['#text'])
        : '';
  return raw
    .replace(
      /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([\da-f]{1,6}));/gi,
      (whole, name?: string, decimal?: string, hex?: string) =>
        name
          ? (named[name.toLowerCase()] ?? whole)
          : character(decimal ? Number(decimal) : parseInt(hex as string, 16)),
    )
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
}

/** An attribute of an element (`Ccy` of a camt.053 `Amt`). */
export const attribute = (node: unknown, name: string) => text(at(node, `@${name}`));
