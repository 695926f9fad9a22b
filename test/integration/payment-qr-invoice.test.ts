import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { InputRejected } from '../../src/errors.js';
import { prepareInvoice } from '../../src/invoice/prepareInvoice.js';
import { buildTotalsReport } from '../../src/invoice/totalsReport.js';
import { createRenderer, type Renderer } from '../../src/render/renderer.js';
import { QR_INVOICES } from '../../src/invoice/examplePaymentQr.js';
import { PNG } from 'pngjs';
import { blackenSquare, greyAt, pdfToPngs, zbarRead } from '../fixtures/qrPages.js';

/** The first row (mm from the top) where more than 30 % of the pixels are dark: the perforation. */
function firstDarkRowMm(png: Buffer, dpi: number): number {
  const image = PNG.sync.read(png);
  for (let y = 0; y < image.height; y++) {
    let dark = 0;
    for (let x = 0; x < image.width; x++) if (image.data[(y * image.width + x) * 4]! < 128) dark++;
    if (dark > image.width * 0.3) return (y * 25.4) / dpi;
  }
  return Number.NaN;
}

/**
 * The payment QR code of a whole invoice, printed by the service's renderer, read back with
 * zbarimg, equals exactly the payload validate answers; the amount in it is the balance due.
 */
const DPI = 150;

let renderer: Renderer;
before(async () => {
  renderer = await createRenderer({ poolSize: 1 });
});
after(async () => {
  await renderer.close();
});

describe('invoices print the payment QR code validate describes', { timeout: 180_000 }, () => {
  for (const scheme of ['epc', 'pix', 'upi', 'eip681'] as const) {
    test(`${scheme}: the code in the payment panel decodes to validate's payload`, async () => {
      const prepared = prepareInvoice(QR_INVOICES[scheme]);
      const report = buildTotalsReport(prepared);
      assert.equal(report.payment_qr?.scheme, scheme);
      const { pdf, pages } = await renderer.renderPdf(prepared);
      assert.equal(pages, 1);
      assert.equal(zbarRead(pdfToPngs(pdf, DPI)[0]!), report.payment_qr!.payload);
    });
  }

  test('amounts in the payloads are the balance due, exactly', () => {
    const paid = { ...QR_INVOICES.epc, amount_paid: 234.55 };
    const report = buildTotalsReport(prepareInvoice(paid));
    assert.equal(report.balance_due.decimal, '1000.00');
    assert.match(report.payment_qr!.payload, /\nEUR1000\.00\n/);
    const usdc = buildTotalsReport(prepareInvoice({ ...QR_INVOICES.eip681, amount_paid: 0.5 }));
    assert.equal(usdc.balance_due.decimal, '1250.00');
    assert.match(usdc.payment_qr!.payload, /&uint256=1250000000$/);
    // Fully paid: nothing to scan.
    assert.equal(buildTotalsReport(prepareInvoice({ ...QR_INVOICES.upi, amount_paid: 50000 })).payment_qr, null);
  });

  test('swiss: the QR-bill on a page of its own, nothing printed over it, its code decoding to the payload', async () => {
    const prepared = prepareInvoice(QR_INVOICES.swiss);
    const report = buildTotalsReport(prepared);
    assert.equal(report.payment_qr?.scheme, 'swiss');
    const { pdf, pages } = await renderer.renderPdf(prepared);
    assert.equal(pages, 2);
    const text = execFileSync('pdftotext', ['-f', '2', '-l', '2', '-layout', '-', '-'], {
      input: pdf,
      encoding: 'utf8',
    });
    assert.match(text, /Zahlteil/);
    assert.match(text, /Empfangsschein/);
    assert.doesNotMatch(text, /Seite 2/, 'no page number on the slip');
    const page = pdfToPngs(pdf, DPI)[1]!;
    // At its true size: the perforation 105 mm above the foot of the A4 page (Chromium would scale
    // the page down if the invoice overflowed its width: see qr-bill.css).
    const perforation = firstDarkRowMm(page, DPI);
    assert.ok(Math.abs(perforation - 192) < 0.3, `perforation at ${perforation.toFixed(2)} mm, not 192 mm`);
    // The running footer (position: fixed repeats it on every page) sits under the slip's white
    // page: where its text would print (16 mm in, 10 mm margin + its line up), the paper is blank.
    for (const xMm of [17, 20, 24, 28, 32])
      assert.ok(greyAt(page, xMm, 297 - 12.5, DPI) > 245, `blank at x=${xMm} mm where the footer would be`);
    const [x, y] = [62 + 5 + 23, 297 - 105 + 17 + 23];
    assert.ok(greyAt(page, x, y, DPI) > 200, 'white cross at the centre of the code');
    assert.equal(zbarRead(blackenSquare(page, x, y, 7, DPI)), report.payment_qr!.payload);
  });

  test('cash rounding (rounding_amount, BT-114): printed with the amount due, which the QR-bill asks for', async () => {
    // A part payment of 0.02 leaves an amount off the 0.05 steps of Swiss cash; the rounding brings it back.
    const unrounded = buildTotalsReport(prepareInvoice({ ...QR_INVOICES.swiss, amount_paid: 0.02 }));
    const due = Number(unrounded.balance_due.decimal);
    const rounding = Number((Math.round(due * 20) / 20 - due).toFixed(2));
    assert.notEqual(rounding, 0);
    const prepared = prepareInvoice({ ...QR_INVOICES.swiss, amount_paid: 0.02, rounding_amount: rounding });
    const report = buildTotalsReport(prepared);
    assert.equal(Number(report.balance_due.decimal), Number((due + rounding).toFixed(2)));
    assert.match(report.payment_qr!.payload, new RegExp(`\n${report.balance_due.decimal.replace('.', '\\.')}\nCHF\n`));
    const { pdf } = await renderer.renderPdf(prepared);
    const text = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-layout', '-', '-'], {
      input: pdf,
      encoding: 'utf8',
    });
    const plain = (value: string) => value.replace(/\s+/g, ' ');
    const row = (label: RegExp) => plain(text.split('\n').find((line) => label.test(line)) ?? '');
    assert.ok(row(/Rundung/).endsWith(plain(report.rounding!.formatted)), row(/Rundung/));
    assert.ok(row(/Noch zu zahlen/).endsWith(plain(report.balance_due.formatted)), row(/Noch zu zahlen/));
  });

  test('a QR that cannot be made exactly is a 400 with the path, never a wrong code', () => {
    const cases: [unknown, string][] = [
      [{ ...QR_INVOICES.epc, payment: { iban: 'DE89 3704 0044 0532 0130 01' } }, 'payment.iban'],
      [{ ...QR_INVOICES.pix, currency: 'EUR' }, 'payment.pix_key'],
      [
        { ...QR_INVOICES.eip681, payment: { evm_address: '0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed' } },
        'payment.evm_address',
      ],
      [
        {
          ...QR_INVOICES.swiss,
          payment: { qr_iban: 'CH44 3199 9123 0008 8901 2', qr_reference: 'RF18 5390 0754 7034' },
        },
        'payment.qr_reference',
      ],
    ];
    for (const [body, path] of cases) {
      assert.throws(
        () => prepareInvoice(body),
        (error: unknown) => error instanceof InputRejected && (error.issues ?? []).some((issue) => issue.path === path),
        path,
      );
    }
  });
});
