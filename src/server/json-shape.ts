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

/**
 * How many bytes of body each array or object, and each other value, must come with. Parsed, an
 * empty array or object costs about 90 bytes of memory and a small value up to 16: a 60 MB body
 * of `[],[],...` took 1.4 GB, of `{},...` 1.9 GB, of `0,0,...` 300 MB. The files we write spend
 * well over 64 bytes on each object and 10 on each value; the allowance starts with some slack so
 * a small body is never refused for its shape.
 */
export const bytesPerContainer = 32;
export const bytesPerValue = 6;
const slack = 1024;

export function tooManyValues(): AppError {
  return new AppError(
    400,
    'validation',
    'The request body holds more arrays, objects and values than its size allows ({containerBytes} bytes per array or object, {valueBytes} per value)',
    { values: { containerBytes: bytesPerContainer, valueBytes: bytesPerValue } },
  );
}

const quote = 0x22;
const comma = 0x2c;
const backslash = 0x5c;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const openBrace = 0x7b;
const closeBrace = 0x7d;

/**
 * Follows the shape of a JSON text read a chunk at a time, in constant memory and without parsing
 * it: how deep it is, whether it is inside a string, and how many arrays, objects and values
 * (commas) it has opened. Bytes of a character beyond ASCII never equal a quote, a backslash, a
 * comma or a bracket, so UTF-8 can be read as bytes, and a chunk may end anywhere. It checks the
 * shape's cost only; the parser checks the rest.
 */
export class JsonShapeCheck {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #bytes = 0;
  #containers = 0;
  #values = 0;

  /** Reads the next part of the text; throws once it nests too deep or holds too much. */
  read(bytes: Uint8Array): void {
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let containers = this.#containers;
    let values = this.#values;
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
        containers += 1;
        if (depth > maxJsonDepth) throw tooDeeplyNested();
      } else if (byte === closeBracket || byte === closeBrace) {
        depth -= 1;
      } else if (byte === comma) {
        values += 1;
      }
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    this.#containers = containers;
    this.#values = values;
    // Counted against the bytes read so far, at the end of each chunk: a wide body is refused
    // part-way, as a deep one is, and what it may cost to parse stays a few times its size.
    this.#bytes += bytes.length;
    const allowance = (bytesEach: number) => slack + this.#bytes / bytesEach;
    if (containers > allowance(bytesPerContainer) || values > allowance(bytesPerValue))
      throw tooManyValues();
  }
}

/** Throws when the whole JSON text `bytes` nests too deep or holds too much for its size. */
export function checkJsonShape(bytes: Uint8Array): void {
  new JsonShapeCheck().read(bytes);
}
