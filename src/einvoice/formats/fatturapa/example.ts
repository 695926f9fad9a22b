import type * as v from 'valibot';
import type { InvoiceInput } from '../../../invoice/schema.js';
import type { FatturaPAFieldsSchema } from './fields.js';

/**
 * The FatturaPA example (OpenAPI's named example "fatturapa", docs/e-invoices-italy.md): a
 * professional's invoice with a 22 % and an exempt line, the pension fund, the withholding and
 * payment by bank transfer. It passes every SDI control the service checks and the schema
 * (test/integration/fatturapa-corpus.test.ts).
 */
export const EXAMPLE_FATTURAPA_REQUEST = {
  profile: 'fatturapa' as const,
  seller: {
    name: 'Studio Bianchi Ingegneria',
    street: 'Via Roma 10',
    city: 'Milano',
    postal_code: '20121',
    country: 'IT',
    vat_id: 'IT01234567897',
    email: 'fatture@studiobianchi.example',
  },
  buyer: {
    name: 'Rossi Costruzioni S.r.l.',
    street: 'Corso Vittorio Emanuele 5',
    city: 'Torino',
    postal_code: '10121',
    country: 'IT',
    vat_id: 'IT09876543217',
  },
  invoice_number: '2026/042',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  line_items: [
    { description: 'Progettazione strutturale', quantity: 12, unit_price: 95, unit: 'HUR', tax_rate: 22 },
    { description: 'Marca da bollo (rimborso)', quantity: 1, unit_price: 2, tax_rate: 0, tax_category: 'O' },
  ],
  payment: { iban: 'IT60 X054 2811 1010 0000 0123 456', reference: '2026/042' },
  fatturapa: {
    recipient_code: 'M5UXCR1',
    regime_fiscale: 'RF01',
    seller_province: 'MI',
    buyer_province: 'TO',
    natura: { code: 'N1', legal_reference: 'Art. 15 DPR 633/72' },
    pension_fund: { type: 'TC04', rate: 4, withholding: false },
    withholding: { type: 'RT01', rate: 20, reason: 'A', lines: [0] },
    payment_method: 'MP05',
  },
} satisfies InvoiceInput & { profile: 'fatturapa'; fatturapa: v.InferInput<typeof FatturaPAFieldsSchema> };
