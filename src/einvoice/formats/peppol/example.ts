import type { InvoiceInput } from '../../../invoice/schema.js';

/** A request that passes the peppol profile's rules (and the official ones: test/integration/einvoice-national-corpus.test.ts). */
export const PEPPOL_EXAMPLE = {
  profile: 'peppol',
  seller: {
    name: 'Brabant Logistics NV',
    street: 'Rue de la Loi 16',
    city: 'Bruxelles',
    postal_code: '1000',
    country: 'BE',
    vat_id: 'BE0403170701',
    legal_registration: { scheme: '0208', id: '0403170701' },
    electronic_address: { scheme: '0208', id: '0403170701' },
    contact_name: 'Lotte Peeters',
    email: 'facturen@brabant.example',
  },
  buyer: {
    name: 'Gentse Bouw BV',
    street: 'Korenmarkt 1',
    city: 'Gent',
    postal_code: '9000',
    country: 'BE',
    vat_id: 'BE0403170897',
    electronic_address: { scheme: '0208', id: '0403170897' },
  },
  invoice_number: 'F2026-0042',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  purchase_order: 'PO-2026-118',
  line_items: [
    { description: 'Transport Antwerpen–Gent', quantity: 3, unit_price: 420, unit: 'C62', tax_rate: 21 },
    { description: 'Opslag (palletplaatsen)', quantity: 40, unit_price: 7.5, unit: 'DAY', tax_rate: 21 },
  ],
  payment: { iban: 'BE68 5390 0754 7034', bic: 'GKCCBEBB', reference: '+++090/9337/55493+++' },
  notes: 'Betaling binnen 30 dagen.',
} satisfies InvoiceInput & { profile: 'peppol' };
