import { AppError } from './errors.ts';

/**
 * The deepest nesting of arrays and objects a request's JSON body may have. The deepest real body
 * is a restore file: the file, its history, an event, the client before or after it (4 levels);
 * an import is 3. Parsing nesting costs far more memory than its text (a 60 MB restore of nothing
 * but brackets took a process to 3.7 GB), so a body is refused as soon as it goes deeper.
 */
export const maxJsonDepth = 16;

export function tooDeeplyNested(): AppError {
  return new AppError(
    400,
    'validation',
    'The request body nests arrays and objects more than {limit} levels deep',
    { values: { limit: maxJsonDepth } },
  );
}

const quote = 0x22;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;

/**
 * Follows the nesting of a JSON text read a chunk at a time, in constant memory and without
 * parsing it: it only knows how deep it is and whether it is inside a string. Bytes of a
 * character beyond ASCII never equal a quote, a backslash or a bracket, so UTF-8 can be read as
 * bytes, and a chunk may end anywhere. It checks nesting only; the parser checks the rest.
 */
export class JsonNestingCheck {
  #depth = 0;
  #inString = false;
  #escaped = false;

  /** Reads the next part of the text; throws `tooDeeplyNested()` once it nests too deep. */
  read(bytes: Uint8Array): void {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let at = 0; at < bytes.length; at += 1) {
      const byte = bytes[at];
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === backslash) escaped = true;
        else if (byte === quote) inString = false;
      } else if (byte === quote) {
        inString = true;
      } else if (byte === openBracket || byte === openBrace) {
        depth += 1;
        if (depth > maxJsonDepth) throw tooDeeplyNested();
      } else if (byte === closeBracket || byte === closeBrace) {
        depth -= 1;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
  }
}

/** Throws `tooDeeplyNested()` when the whole JSON text `bytes` nests too deep. */
export function checkJsonNesting(bytes: Uint8Array): void {
  new JsonNestingCheck().read(bytes);
}
