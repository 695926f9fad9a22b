import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { choosePaymentQr, type PaymentQr, type SwissQr } from '../../src/invoice/paymentQr/index.js';
import { paymentQrSvg } from '../../src/render/paymentQrSvg.js';
import { buildSwissQrBillView } from '../../src/render/swissQrBillView.js';
import { SCHEME_INPUTS } from '../fixtures/paymentQrInputs.js';
import {
  blackenSquare,
  greyAt,
  openPagePrinter,
  pdfToPngs,
  qrCodePages,
  swissQrBillPage,
  zbarRead,
  type PagePrinter,
} from '../fixtures/qrPages.js';

/**
 * Each scheme's code read back from a real PDF: Chromium prints the page, pdftoppm draws it at
 * 150 dpi, zbarimg decodes it, and the text must equal the payload byte for byte.
 */
const DPI = 150;

function qrFor(input: (typeof SCHEME_INPUTS)[keyof typeof SCHEME_INPUTS]): PaymentQr {
  const choice = choosePaymentQr(input);
  assert.equal(choice.kind, 'qr');
  return (choice as { qr: PaymentQr }).qr;
}

let printer: PagePrinter;
before(async () => {
  printer = await openPagePrinter();
});
after(async () => {
  await printer.close();
});

describe('payment QR codes decode from the printed PDF to their exact payload', { timeout: 120_000 }, () => {
  test('EPC, PIX, UPI and EIP-681: one code per page, 4-module quiet zone', async () => {
    const schemes = (['epc', 'pix', 'upi', 'eip681'] as const).map((scheme) => qrFor(SCHEME_INPUTS[scheme]));
    const pdf = await printer.print(qrCodePages(schemes.map((qr) => paymentQrSvg(qr.payload).svg)));
    const pages = pdfToPngs(pdf, DPI);
    assert.equal(pages.length, schemes.length);
    schemes.forEach((qr, index) => assert.equal(zbarRead(pages[index]!), qr.payload, qr.scheme));
  });

  test('Swiss QR-bill: the code of the payment part at the foot of an A4 page', async () => {
    const qr = qrFor(SCHEME_INPUTS.swiss) as SwissQr;
    const pdf = await printer.print(swissQrBillPage(buildSwissQrBillView(qr, 'de')));
    const [page, ...rest] = pdfToPngs(pdf, DPI);
    assert.equal(rest.length, 0, 'one page');
    // The code's centre, per the layout: payment part at x = 62 mm, code 5 mm in; slip 105 mm high, code 17 mm down.
    const [x, y] = [62 + 5 + 23, 297 - 105 + 17 + 23];
    // The Swiss cross is printed: white at its centre, black in its square's corner.
    assert.ok(greyAt(page!, x, y, DPI) > 200, 'white cross at the centre of the code');
    assert.ok(greyAt(page!, x - 2.8, y - 2.8, DPI) < 60, 'black square of the cross');
    // zbar cannot read through the cross (see blackenSquare); with the 7 mm square dark it reads the rest.
    assert.equal(zbarRead(blackenSquare(page!, x, y, 7, DPI)), qr.payload);
  });
});
