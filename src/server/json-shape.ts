import { AppError } from './errors.ts';

// Parsed nesting costs far more memory than its text; a restore file nests 4 deep (decision 018).
export const maxJsonDepth = 16;

function tooDeeplyNested(): AppError {
  return new AppError(
    400,
    'validation',
    'The request body nests arrays and objects more than {limit} levels deep',
    { values: { limit: maxJsonDepth } },
  );
}

// Parsed, an empty array or object costs about 90 bytes and a value up to 16: each must come with
// enough body that a wide body cannot cost many times its size. Our files spend far more.
const bytesPerContainer = 32;
const bytesPerValue = 6;
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

/** UTF-8 can be read as bytes: no byte beyond ASCII equals a quote, backslash, comma or bracket. */
export class JsonShapeCheck {
  #depth = 0;
  #inString = false;
  #escaped = false;
  #bytes = 0;
  #containers = 0;
  #values = 0;

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
    // Against the bytes so far, so a wide body is refused part-way, as a deep one is.
    this.#bytes += bytes.length;
    const allowance = (bytesEach: number) => slack + this.#bytes / bytesEach;
    if (containers > allowance(bytesPerContainer) || values > allowance(bytesPerValue))
      throw tooManyValues();
  }
}

export function checkJsonShape(bytes: Uint8Array): void {
  new JsonShapeCheck().read(bytes);
}
