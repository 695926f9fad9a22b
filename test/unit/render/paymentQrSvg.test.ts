import assert from 'node:assert/strict';
import { test } from 'node:test';
import QRCode from 'qrcode';
import { paymentQrSvg } from '../../../src/render/paymentQrSvg.js';

const PAYLOAD =
  'BCD\n002\n1\nSCT\n\nMüller GmbH\nDE89370400440532013000\nEUR12.30\n\n\n<script>alert(1)</script> & "x"';

/** The dark modules the SVG path draws, read back from its "M x y h w v h h-w z" rectangles. */
function drawnModules(svg: string): Set<string> {
  const d = /<path fill="#000" d="([^"]*)"/.exec(svg)![1]!;
  const dark = new Set<string>();
  const rectangles = [...d.matchAll(/M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z/g)];
  // The path is nothing but such rectangles, and no module is drawn twice.
  assert.equal(rectangles.map(([whole]) => whole).join(''), d);
  for (const [, x, y, width, height, back] of rectangles) {
    assert.equal(back, width);
    for (let row = 0; row < Number(height); row++) {
      for (let i = 0; i < Number(width); i++) {
        const module = `${Number(x) + i},${Number(y) + row}`;
        assert.ok(!dark.has(module), `module ${module} drawn twice`);
        dark.add(module);
      }
    }
  }
  return dark;
}

test("the SVG draws exactly the encoder's matrix (level M, byte mode), offset by the quiet zone", () => {
  const { svg, version, modules } = paymentQrSvg(PAYLOAD);
  const reference = QRCode.create([{ data: new TextEncoder().encode(PAYLOAD), mode: 'byte' }], {
    errorCorrectionLevel: 'M',
  });
  assert.equal(version, reference.version);
  assert.equal(modules, reference.modules.size);
  const expected = new Set<string>();
  for (let row = 0; row < modules; row++)
    for (let col = 0; col < modules; col++) if (reference.modules.get(row, col)) expected.add(`${col + 4},${row + 4}`);
  assert.deepEqual(drawnModules(svg), expected);
  assert.match(svg, new RegExp(`viewBox="0 0 ${modules + 8} ${modules + 8}"`));
  // Level M: the format information of a level-L code would differ, so the matrices would too.
  const levelL = QRCode.create([{ data: new TextEncoder().encode(PAYLOAD), mode: 'byte' }], {
    errorCorrectionLevel: 'L',
  });
  assert.notDeepEqual(levelL.modules.data, reference.modules.data);
});

test('geometry only: no text from the payload, no URL, no xmlns', () => {
  const { svg } = paymentQrSvg(PAYLOAD, { size: '40mm' });
  assert.doesNotMatch(svg, /Müller|script|alert|DE89|&|"x"/);
  assert.doesNotMatch(svg, /https?:|xmlns|href|<text|<foreignObject|<image/i);
  assert.match(
    svg,
    /^<svg class="payment-qr" viewBox="[\d ]+" width="40mm" height="40mm" role="img"><rect [^>]+\/><path fill="#000" d="[Mhvz\d -]+"\/><\/svg>$/,
  );
  assert.throws(() => paymentQrSvg('x', { size: '40mm;background:url(x)' }), /not a length/);
});

test('the quiet zone is configurable: 0 for the Swiss QR-bill, whose layout keeps 5 mm free', () => {
  const bare = paymentQrSvg('SPC', { quietZoneModules: 0 });
  assert.match(bare.svg, new RegExp(`viewBox="0 0 ${bare.modules} ${bare.modules}"`));
  assert.ok(drawnModules(bare.svg).has('0,0'), 'the finder pattern starts at the corner');
});

test('the Swiss cross: 7/46 of the symbol, centred, white edge, black square, white cross', () => {
  const { svg, modules } = paymentQrSvg('SPC\n0200\n1', { quietZoneModules: 0, swissCross: true });
  const rects = [
    ...svg.matchAll(/<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#[0f]+)"\/>/g),
  ].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    w: Number(m[3]),
    h: Number(m[4]),
    fill: m[5],
  }));
  assert.equal(rects.length, 4);
  const [edge, square, vertical, horizontal] = rects as [
    (typeof rects)[0],
    (typeof rects)[0],
    (typeof rects)[0],
    (typeof rects)[0],
  ];
  const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-3, `${a} ≈ ${b}`);
  near(edge.w, (modules * 7) / 46);
  near(edge.x + edge.w / 2, modules / 2);
  near(edge.y + edge.h / 2, modules / 2);
  assert.deepEqual([edge.fill, square.fill, vertical.fill, horizontal.fill], ['#fff', '#000', '#fff', '#fff']);
  near(vertical.w, horizontal.h);
  near(vertical.h, horizontal.w);
  near(vertical.w / vertical.h, 6 / 20);
});

test("a payload beyond the scheme's QR version is refused, not drawn smaller", () => {
  assert.throws(() => paymentQrSvg('x'.repeat(1400), { maxVersion: 25 }), /version \d+, above the scheme's 25/);
});
