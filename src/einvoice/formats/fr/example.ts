import type { InvoiceInput } from '../../../invoice/schema.js';

/** A request that passes the fr profile's rules (and the official ones: test/integration/einvoice-national-corpus.test.ts). */
export const FR_EXAMPLE = {
  profile: 'fr',
  seller: {
    name: 'Atelier Lumière SAS',
    street: '10 rue de Rivoli',
    city: 'Paris',
    postal_code: '75004',
    country: 'FR',
    vat_id: 'FR40732829320',
    legal_registration: { scheme: '0002', id: '732829320' },
    electronic_address: { scheme: '0225', id: '732829320_FACTURES' },
    email: 'factures@atelier-lumiere.example',
  },
  buyer: {
    name: 'Boulangeries Réunies SARL',
    street: '3 place Bellecour',
    city: 'Lyon',
    postal_code: '69002',
    country: 'FR',
    vat_id: 'FR83552100554',
    legal_registration: { scheme: '0002', id: '552100554' },
    electronic_address: { scheme: '0009', id: '55210055400013' },
  },
  invoice_number: 'F-2026-0042',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  business_process: 'S1',
  purchase_order: 'BC-2026-118',
  delivery_date: '2026-10-28',
  line_items: [
    { description: 'Éclairage boutique : étude', quantity: 3, unit_price: 950, unit: 'DAY', tax_rate: 20 },
    { description: 'Luminaires LED', quantity: 24, unit_price: 64.9, unit: 'C62', tax_rate: 20 },
  ],
  legal_notes: { late_fee_annual_percent: 12, discount_percent: 2, discount_days: 10 },
  payment: { iban: 'FR76 3000 6000 0112 3456 7890 189', bic: 'AGRIFRPP', reference: 'F-2026-0042' },
} satisfies InvoiceInput & { profile: 'fr' };
