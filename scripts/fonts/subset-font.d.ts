// subset-font ships no types: what scripts/fonts/subset-fonts.ts uses of it.
declare module 'subset-font' {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: 'truetype' | 'sfnt' | 'woff' | 'woff2'; keepFeatures?: string[] },
  ): Promise<Buffer>;
}
