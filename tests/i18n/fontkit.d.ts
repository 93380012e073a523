// fontkit (pdfkit's font engine) ships no types: what tests/i18n/statement-fonts.test.ts uses.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
    glyphForCodePoint(codePoint: number): { advanceWidth: number };
  }
  export function create(buffer: Buffer): Font;
}
