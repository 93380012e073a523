// fontkit (pdfkit's font engine) ships no types: what the font tests and scripts/fonts use of it.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): {
      advanceWidth: number;
      /** An empty outline draws nothing: what a font's empty `.notdef` shows. */
      path: { commands: unknown[] };
    };
    /** Every code point the font maps to a glyph. */
    characterSet: number[];
  }
  export function create(buffer: Buffer): Font;
}
