// Korean banks write their files in CP949 (Unified Hangul Code): EUC-KR (KS X 1001) and, in the
// byte pairs EUC-KR leaves free, the 8,822 modern Hangul syllables KS X 1001 lacks. Node's
// TextDecoder('euc-kr') reads the KS X 1001 pairs but passes a lead byte of the extension through
// as a C1 control character ("똠" comes out as U+008C "c"), without an error even when fatal, so
// the extension is decoded here (docs/decisions/030-payments-from-the-bank.md).

const firstSyllable = 0xac00;
const lastSyllable = 0xd7a3;

/** Code unit of each byte pair (lead << 8 | trail); 0 where CP949 has none. */
let table: Uint16Array | undefined;

/** The extension's trail bytes for a lead byte: letters, then the high half (shorter from 0xA1). */
function* extensionTrails(lead: number) {
  for (let trail = 0x41; trail <= 0x5a; trail++) yield trail;
  for (let trail = 0x61; trail <= 0x7a; trail++) yield trail;
  for (let trail = 0x81; trail <= (lead <= 0xa0 ? 0xfe : 0xa0); trail++) yield trail;
}

function buildTable(): Uint16Array {
  const pairs = new Uint16Array(0x10000);
  const decoder = new TextDecoder('euc-kr');
  const inKsX1001 = new Set<number>();
  for (let lead = 0xa1; lead <= 0xfe; lead++)
    for (let trail = 0xa1; trail <= 0xfe; trail++) {
      const text = decoder.decode(new Uint8Array([lead, trail]));
      const code = text.charCodeAt(0);
      // Private-use codes (user-defined rows) are no text a bank writes.
      if (text.length !== 1 || code < 0xa0 || code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff))
        continue;
      pairs[(lead << 8) | trail] = code;
      if (code >= firstSyllable && code <= lastSyllable) inKsX1001.add(code);
    }
  // Added by CP949 later, and missing from Node's table.
  pairs[0xa2e6] = 0x20ac; // €
  pairs[0xa2e7] = 0xae; // ®
  // The syllables KS X 1001 lacks, in Unicode order, fill the extension's pairs in byte order.
  let syllable = firstSyllable;
  const nextMissing = () => {
    while (syllable <= lastSyllable && inKsX1001.has(syllable)) syllable++;
    return syllable <= lastSyllable ? syllable++ : null;
  };
  for (let lead = 0x81; lead <= 0xc6; lead++)
    for (const trail of extensionTrails(lead)) {
      const code = nextMissing();
      if (code === null) return pairs;
      pairs[(lead << 8) | trail] = code;
    }
  return pairs;
}

/** The text of CP949 (or EUC-KR) bytes; null when a byte or pair is none of its characters. */
export function decodeCp949(bytes: Uint8Array): string | null {
  table ??= buildTable();
  const units = new Uint16Array(bytes.length);
  let length = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (byte < 0x80) {
      units[length++] = byte;
      continue;
    }
    const code = index + 1 < bytes.length ? table[(byte << 8) | (bytes[index + 1] as number)] : 0;
    if (!code) return null;
    units[length++] = code;
    index++;
  }
  return new TextDecoder('utf-16le').decode(units.subarray(0, length));
}
