import QRCode from 'qrcode';

/**
 * A payment payload as an inline SVG QR code: vector, error-correction level M (what EPC069-12,
 * the Swiss IG and the BR Code ask for), the payload as one byte-mode segment of its UTF-8 bytes
 * (no mode switching: every payment reader handles byte mode, and the bytes are exactly the
 * payload's). The markup is geometry only: no text, no xmlns or other URL, nothing from the
 * payload, so it is safe to place into the page unescaped.
 *
 * The encoder is the `qrcode` package (QRCode.create returns the module matrix synchronously; MIT,
 * no native code, used by millions); this file only draws its matrix.
 */
export interface PaymentQrSvgOptions {
  /** White modules around the symbol (ISO/IEC 18004 asks for 4). 0 when the layout keeps the space, as the Swiss QR-bill's 5 mm do. */
  quietZoneModules?: number;
  /** Width and height as a CSS length ("46mm"); omitted, the SVG scales to its container. */
  size?: string;
  /**
   * Instead of `size`: the width of the symbol alone in mm, the quiet zone added around it (the QR
   * tributario's 32 mm symbol), so that the code is encoded once whatever its version.
   */
  symbolMm?: number;
  /** The Swiss QR Code's recognition mark: the 7 × 7 mm Swiss cross in the middle of the 46 × 46 mm symbol. */
  swissCross?: boolean;
  /** Highest QR version allowed (the Swiss IG: 25). */
  maxVersion?: number;
}

export interface PaymentQrSvg {
  svg: string;
  /** QR version (1–40) and modules per side, symbol only. */
  version: number;
  modules: number;
}

const DEFAULT_QUIET_ZONE = 4;

export function paymentQrSvg(payload: string, options: PaymentQrSvgOptions = {}): PaymentQrSvg {
  const quiet = options.quietZoneModules ?? DEFAULT_QUIET_ZONE;
  const qr = QRCode.create([{ data: new TextEncoder().encode(payload), mode: 'byte' }], { errorCorrectionLevel: 'M' });
  if (options.maxVersion !== undefined && qr.version > options.maxVersion) {
    throw new Error(`payment QR: the payload needs QR version ${qr.version}, above the scheme's ${options.maxVersion}`);
  }
  const size = qr.modules.size;
  const side = size + 2 * quiet;
  const length = options.symbolMm
    ? cssLength(`${((options.symbolMm * side) / size).toFixed(2)}mm`)
    : options.size && cssLength(options.size);
  const dimensions = length ? ` width="${length}" height="${length}"` : '';
  const parts = [
    `<svg class="payment-qr" viewBox="0 0 ${side} ${side}"${dimensions} role="img">`,
    `<rect width="${side}" height="${side}" fill="#fff"/>`,
    `<path fill="#000" d="${modulePath(qr.modules, quiet)}"/>`,
  ];
  if (options.swissCross) parts.push(swissCross(quiet, size));
  parts.push('</svg>');
  return { svg: parts.join(''), version: qr.version, modules: size };
}

/**
 * The dark modules as few rectangles as a greedy merge finds: each run of dark modules in a row,
 * extended down while the rows below repeat it. Chromium's print time grows with the path's
 * subpaths (about 6 µs each: one rectangle per run made a QR code cost ≈ 5 ms of a 14 ms
 * invoice; npm run bench:real-world), and the merge draws ~15 % fewer of them.
 */
function modulePath(modules: QRCode.BitMatrix, offset: number): string {
  const size = modules.size;
  const taken = new Uint8Array(size * size);
  const free = (row: number, col: number) => modules.get(row, col) && !taken[row * size + col];
  let d = '';
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!free(row, col)) continue;
      let width = 1;
      while (col + width < size && free(row, col + width)) width++;
      let height = 1;
      while (row + height < size && Array.from({ length: width }, (_, k) => free(row + height, col + k)).every(Boolean))
        height++;
      for (let y = 0; y < height; y++) taken.fill(1, (row + y) * size + col, (row + y) * size + col + width);
      d += `M${col + offset} ${row + offset}h${width}v${height}h-${width}z`;
    }
  }
  return d;
}

/**
 * The Swiss cross (IG QR-bill 6.4.2.1): 7 mm of the 46 mm symbol, centred; a black square with a
 * white edge and the white cross of the flag's proportions (arms 6/32 wide, 20/32 long).
 */
function swissCross(offset: number, size: number): string {
  const side = (size * 7) / 46;
  const origin = offset + (size - side) / 2;
  const edge = side * (0.5 / 7);
  const black = side - 2 * edge;
  const armWidth = (black * 6) / 32;
  const armLength = (black * 20) / 32;
  const centre = offset + size / 2;
  const n = (value: number) => Number(value.toFixed(4));
  return [
    `<rect x="${n(origin)}" y="${n(origin)}" width="${n(side)}" height="${n(side)}" fill="#fff"/>`,
    `<rect x="${n(origin + edge)}" y="${n(origin + edge)}" width="${n(black)}" height="${n(black)}" fill="#000"/>`,
    `<rect x="${n(centre - armWidth / 2)}" y="${n(centre - armLength / 2)}" width="${n(armWidth)}" height="${n(armLength)}" fill="#fff"/>`,
    `<rect x="${n(centre - armLength / 2)}" y="${n(centre - armWidth / 2)}" width="${n(armLength)}" height="${n(armWidth)}" fill="#fff"/>`,
  ].join('');
}

/** Our own constant lengths only; anything else is a programming error. */
function cssLength(value: string): string {
  if (!/^\d+(\.\d+)?(mm|px|cm|in)$/.test(value)) throw new Error(`payment QR: ${value} is not a length like 46mm`);
  return value;
}
