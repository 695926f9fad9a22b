// The part of fontkit (https://github.com/foliojs/fontkit) this service reads; fontkit 3 ships no types.
declare module 'fontkit' {
  interface FontTableEntry {
    tag: string;
    offset: number;
    length: number;
    compLength?: number;
  }
  export interface Font {
    type: string;
    postscriptName: string | null;
    familyName: string | null;
    subfamilyName: string | null;
    italicAngle: number;
    numGlyphs: number;
    characterSet: number[];
    variationAxes: Record<string, unknown>;
    directory: { tables: Record<string, FontTableEntry> };
    'OS/2'?: {
      usWeightClass: number;
      fsType: { noEmbedding: boolean; viewOnly: boolean };
      fsSelection: { italic: boolean; oblique: boolean };
    };
    head: { macStyle: { italic: boolean } };
    getName(key: string): string | null;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export interface FontCollection {
    type: 'TTC' | 'DFont';
    fonts: Font[];
  }
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): Font | FontCollection;
}
