import type { InvoiceInput } from '../invoice/schema.js';
import { FORMATS } from './formats/registry.js';

/** The example of the e-invoice routes (discovery documents, docs/e-invoices.md): passes every EN 16931 rule. */
export const EXAMPLE_EINVOICE = {
  seller: {
    name: 'Northwind Studio GmbH',
    street: 'Torstraße 12',
    city: 'Berlin',
    postal_code: '10119',
    country: 'DE',
    vat_id: 'DE123456789',
    email: 'billing@northwind.example',
  },
  buyer: {
    name: 'Acme Robotics GmbH',
    street: 'Königsallee 1',
    city: 'Düsseldorf',
    postal_code: '40212',
    country: 'DE',
    vat_id: 'DE987654321',
  },
  invoice_number: 'INV-2026-0042',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'EUR',
  line_items: [
    { description: 'Product design sprint', quantity: 5, unit_price: 1280, unit: 'DAY', tax_rate: 19 },
    { description: 'Design handbook (print)', quantity: 2, unit_price: 39.9, unit: 'C62', tax_rate: 7 },
  ],
  discount: 100,
  payment: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', reference: 'INV-2026-0042' },
} satisfies InvoiceInput;

/**
 * One request per national profile (OpenAPI examples named after the profile, docs), from the
 * format registry: each passes its profile's rules, and the official ones
 * (test/integration/einvoice-national-corpus.test.ts).
 */
type Registered = (typeof FORMATS)[number];
type WithExample = Extract<Registered, { example: object }>;
export const EXAMPLE_PROFILE_REQUESTS = Object.fromEntries(
  FORMATS.flatMap((format) => ('example' in format && format.example ? [[format.id, format.example]] : [])),
) as { [F in WithExample as F['id']]: NonNullable<F['example']> };
