// subset-font (HarfBuzz's subsetter) ships no types; the one call the tests make.
declare module 'subset-font' {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: 'sfnt' | 'truetype' | 'woff' | 'woff2' },
  ): Promise<Buffer>;
}
