/**
 * Stands for `@pdf-lib/standard-fonts` in the Lambda bundles (alias in ./index.ts): the same
 * exports, with the metrics of the two fonts our PDFs embed (functions/lib/pdf.ts: Helvetica
 * and Helvetica-Bold) instead of all fourteen (~29 KB instead of ~127 KB per bundle). The
 * package's files are imported by relative path because the alias covers its name.
 * `Font.load` follows the package's own (MIT, github.com/Hopding/standard-fonts); any other
 * font name throws at once, so a PDF that needed one would fail loudly, never render wrong.
 */
import { decompressJson } from '../../node_modules/@pdf-lib/standard-fonts/es/utils.js';
import HelveticaCompressed from '../../node_modules/@pdf-lib/standard-fonts/es/Helvetica.compressed.json';
import HelveticaBoldCompressed from '../../node_modules/@pdf-lib/standard-fonts/es/Helvetica-Bold.compressed.json';

export { Encodings } from '../../node_modules/@pdf-lib/standard-fonts/es/Encoding.js';

export enum FontNames {
  Courier = 'Courier',
  CourierBold = 'Courier-Bold',
  CourierOblique = 'Courier-Oblique',
  CourierBoldOblique = 'Courier-BoldOblique',
  Helvetica = 'Helvetica',
  HelveticaBold = 'Helvetica-Bold',
  HelveticaOblique = 'Helvetica-Oblique',
  HelveticaBoldOblique = 'Helvetica-BoldOblique',
  TimesRoman = 'Times-Roman',
  TimesRomanBold = 'Times-Bold',
  TimesRomanItalic = 'Times-Italic',
  TimesRomanBoldItalic = 'Times-BoldItalic',
  Symbol = 'Symbol',
  ZapfDingbats = 'ZapfDingbats',
}

/** the fonts the Lambda functions embed */
export const BUNDLED_FONTS: Partial<Record<FontNames, string>> = {
  [FontNames.Helvetica]: HelveticaCompressed as unknown as string,
  [FontNames.HelveticaBold]: HelveticaBoldCompressed as unknown as string,
};

interface CharMetric {
  C: number;
  WX: number;
  N: string;
  B: [number, number, number, number];
  L: [string, string][];
}

const cache = new Map<string, Font>();

export class Font {
  FontName!: string;
  FullName!: string;
  FamilyName!: string;
  Weight!: string;
  CharacterSet!: string;
  Version!: string;
  Notice!: string;
  EncodingScheme!: string;
  ItalicAngle!: number;
  UnderlinePosition!: number;
  UnderlineThickness!: number;
  IsFixedPitch!: boolean;
  FontBBox!: [number, number, number, number];
  CapHeight!: number;
  XHeight!: number;
  Ascender!: number;
  Descender!: number;
  StdHW!: number;
  StdVW!: number;
  CharMetrics!: CharMetric[];
  KernPairs!: [string, string, number][];
  private CharWidths!: Record<string, number>;
  private KernPairXAmounts!: Record<string, Record<string, number>>;

  static load(fontName: FontNames): Font {
    const cached = cache.get(fontName);
    if (cached) return cached;
    const compressed = BUNDLED_FONTS[fontName];
    if (!compressed) throw new Error(`Standard font ${fontName} is not in the Lambda bundle (infra/lambda-bundle/pdf-standard-fonts.ts)`);
    const font = Object.assign(new Font(), JSON.parse(decompressJson(compressed)) as Partial<Font>);
    font.CharWidths = Object.fromEntries(font.CharMetrics.map((m) => [m.N, m.WX]));
    font.KernPairXAmounts = {};
    for (const [left, right, width] of font.KernPairs) (font.KernPairXAmounts[left] ??= {})[right] = width;
    cache.set(fontName, font);
    return font;
  }

  getWidthOfGlyph = (glyphName: string): number | undefined => this.CharWidths[glyphName];

  getXAxisKerningForPair = (leftGlyphName: string, rightGlyphName: string): number | undefined =>
    (this.KernPairXAmounts[leftGlyphName] ?? {})[rightGlyphName];
}
