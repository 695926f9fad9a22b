import { EXAMPLE_INVOICE } from '../../invoice/example.js';
import { QR_INVOICES } from '../../invoice/examplePaymentQr.js';
import { EXAMPLE_REAL_WORLD_INVOICE } from '../../invoice/exampleRealWorld.js';
import { prepareInvoice, type PreparedInvoice } from '../../invoice/prepareInvoice.js';
import { eachTurn } from '../../render/eachTurn.js';
import type { InvoiceInput } from '../../invoice/schema.js';

/**
 * The content contract's reference invoices (docs/templates.md): every package is filled with each
 * of them, and each must show every fact the built-in designs show (contractFacts.ts). Between
 * them they reach every block a design prints: one line and 200 lines, a credit note, right to
 * left, CJK, several VAT rates with an exemption, each payment QR kind and a stamp.
 */
export interface ReferenceInvoice {
  id: string;
  title: string;
  invoice: InvoiceInput;
}

const dates = { issue_date: '2026-11-02', due_date: '2026-12-02' } as const;

const german = {
  seller: QR_INVOICES.epc.seller,
  buyer: {
    name: 'Bäckerei Schmidt',
    street: 'Marktplatz 1',
    postal_code: '10115',
    city: 'Berlin',
    country: 'DE',
    vat_id: 'DE987654321',
  },
  currency: 'EUR',
  locale: 'de-DE',
} as const satisfies Partial<InvoiceInput>;

// Every seventh line wraps (a design that clips or cuts long descriptions fails here): at print
// time, a text longer than the references' of its kind is checked in full (designCoverage.ts).
const manyLines: InvoiceInput['line_items'] = Array.from({ length: 200 }, (_, index) => ({
  description:
    index % 7 === 6
      ? `Wartungsposition ${index + 1}: Vor-Ort-Workshop mit Vorbereitung, Moderation und schriftlicher Zusammenfassung der Ergebnisse für das Produktteam, einschließlich Nachbereitung und Rückfragen`
      : `Wartungsposition ${index + 1}: Server-Check und Bericht`,
  quantity: (index % 7) + 1,
  unit_price: 12.5 + index,
  tax_rate: 19,
}));

export const REFERENCE_INVOICES: readonly ReferenceInvoice[] = [
  { id: 'one-line', title: 'One line', invoice: { ...EXAMPLE_INVOICE, line_items: EXAMPLE_INVOICE.line_items.slice(0, 1) } },
  {
    id: 'many-lines',
    title: '200 lines over several pages',
    invoice: { ...german, ...dates, invoice_number: 'RE-2026-0200', line_items: manyLines },
  },
  {
    id: 'credit-note',
    title: 'A credit note',
    invoice: {
      ...EXAMPLE_INVOICE,
      invoice_number: 'CN-2026-0007',
      document_type: 'credit_note',
      preceding_invoice: { number: 'INV-2026-0042', issue_date: '2026-11-02' },
    },
  },
  {
    id: 'arabic',
    title: 'Arabic, right to left',
    invoice: {
      seller: { name: 'شركة النخيل للبرمجيات', address: 'شارع الشيخ زايد ١٢\nدبي', country: 'AE', vat_id: 'AE100000000000003' },
      buyer: { name: 'مؤسسة الواحة التجارية', address: 'شارع الكورنيش ٤\nأبوظبي', country: 'AE' },
      invoice_number: 'INV-AE-0042',
      ...dates,
      currency: 'AED',
      locale: 'ar-AE',
      line_items: [
        { description: 'تصميم واجهة التطبيق', quantity: 3, unit_price: 1500, tax_rate: 5 },
        { description: 'استضافة سنوية', quantity: 1, unit_price: 900, tax_rate: 5 },
      ],
      notes: 'شكراً لتعاملكم معنا.',
    },
  },
  {
    id: 'japanese',
    title: 'Japanese',
    invoice: {
      seller: { name: '株式会社サンプル商事', address: '東京都千代田区丸の内1-1-1', country: 'JP', tax_registration_number: 'T1234567890123' },
      buyer: { name: '山田工業株式会社', address: '大阪府大阪市北区梅田2-2-2', country: 'JP' },
      invoice_number: 'JP-2026-0042',
      ...dates,
      currency: 'JPY',
      locale: 'ja-JP',
      line_items: [
        { description: 'ウェブサイト制作', quantity: 1, unit_price: 300000, tax_rate: 10 },
        { description: '保守サポート（月額）', quantity: 3, unit_price: 20000, tax_rate: 10 },
      ],
      payment_instructions: '三菱UFJ銀行 丸の内支店 普通 1234567 にお振込みください。',
    },
  },
  {
    id: 'vat-rates',
    title: 'Several VAT rates and an exemption note',
    invoice: withExemption(),
  },
  // The payment QR examples under invoice numbers of their own (and the SEPA one's buyer with a VAT id).
  {
    id: 'qr-epc',
    title: 'SEPA (EPC) payment QR code',
    invoice: { ...QR_INVOICES.epc, invoice_number: 'RE-2026-0042', buyer: german.buyer },
  },
  { id: 'qr-swiss', title: 'Swiss QR-bill', invoice: { ...QR_INVOICES.swiss, invoice_number: 'CH-2026-0042' } },
  { id: 'qr-pix', title: 'PIX payment QR code', invoice: { ...QR_INVOICES.pix, invoice_number: 'BR-2026-0042' } },
  { id: 'qr-upi', title: 'UPI payment QR code', invoice: { ...QR_INVOICES.upi, invoice_number: 'IN-2026-0042' } },
  {
    id: 'qr-usdc',
    title: 'USDC (EIP-681) payment QR code',
    invoice: { ...QR_INVOICES.eip681, invoice_number: 'US-2026-0042' },
  },
  { id: 'stamped', title: 'A stamp on every page', invoice: { ...EXAMPLE_INVOICE, stamp: 'paid' } },
];

/** The real-world example (two VAT rates, a discount, amount paid) with an exempt line and its reason. */
function withExemption(): InvoiceInput {
  return {
    ...EXAMPLE_REAL_WORLD_INVOICE,
    invoice_number: 'RE-2026-0043',
    line_items: [
      ...EXAMPLE_REAL_WORLD_INVOICE.line_items,
      { description: 'Schulung (steuerfrei)', quantity: 1, unit_price: 400, tax_rate: 0, tax_category: 'E' },
    ],
    tax_exemption_reason: 'Steuerfrei nach § 4 Nr. 21 UStG',
  } as InvoiceInput;
}

type Reference = { id: string; prepared: PreparedInvoice };
let prepared: Reference[] | undefined;
/** The reference invoices prepared (once), as the contract's look and the print-time check fill them. */
export const preparedReferences = (): readonly Reference[] =>
  (prepared ??= REFERENCE_INVOICES.map(({ id, invoice }) => ({ id, prepared: prepareInvoice(invoice) })));

/**
 * Prepares the reference invoices ahead, one per turn of the event loop, as soon as a service that
 * looks at designs is built: the first design a request brought prepared all 12 at once, 10-96 ms
 * of the loop that answers /healthz (reliability 11, docs/reliability.md). A look that comes
 * first prepares them itself.
 */
export function prepareReferencesAhead(): void {
  eachTurn(
    REFERENCE_INVOICES,
    ({ id, invoice }) => ({ id, prepared: prepareInvoice(invoice) }),
    (ready) => (prepared ??= ready),
    { stop: () => prepared !== undefined },
  );
}
