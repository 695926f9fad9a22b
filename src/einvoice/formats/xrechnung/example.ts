import type { InvoiceInput } from '../../../invoice/schema.js';

/** A request that passes the xrechnung profile's rules (and the official ones: test/integration/einvoice-national-corpus.test.ts). */
export const XRECHNUNG_EXAMPLE = {
  profile: 'xrechnung',
  seller: {
    name: 'Nordwind Studio GmbH',
    street: 'Torstraße 12',
    city: 'Berlin',
    postal_code: '10119',
    country: 'DE',
    vat_id: 'DE123456789',
    contact_name: 'Jana Roth',
    phone: '+49 30 1234567',
    email: 'billing@nordwind.example',
    electronic_address: { scheme: 'EM', id: 'billing@nordwind.example' },
  },
  buyer: {
    name: 'Bezirksamt Mitte von Berlin',
    street: 'Karl-Marx-Allee 31',
    city: 'Berlin',
    postal_code: '10178',
    country: 'DE',
    electronic_address: { scheme: '0204', id: '04011000-12345-03' },
  },
  invoice_number: 'RE-2026-0815',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  buyer_reference: '04011000-12345-03',
  delivery_date: '2026-10-30',
  line_items: [
    { description: 'Barrierefreie Website: Konzeption', quantity: 6, unit_price: 1180, unit: 'DAY' },
    { description: 'Hosting Oktober', quantity: 1, unit_price: 89 },
  ],
  tax_rate: 19,
  payment: {
    iban: 'DE89 3704 0044 0532 0130 00',
    bic: 'COBADEFFXXX',
    account_name: 'Nordwind Studio GmbH',
    reference: 'RE-2026-0815',
  },
} satisfies InvoiceInput & { profile: 'xrechnung' };
