import type { InvoiceInput } from '../invoice/schema.js';
import { HR_EXAMPLE_REQUEST } from './formats/hr/example.js';
import { PINT_EXAMPLE_REQUESTS } from './formats/pint/examples.js';
import type { EInvoiceProfile } from './profiles.js';

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
 * One request per national profile (OpenAPI examples named after the profile, docs): each passes
 * its profile's rules, and the official ones (test/integration/einvoice-national-corpus.test.ts).
 */
export const EXAMPLE_PROFILE_REQUESTS = {
  xrechnung: {
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
  },
  peppol: {
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
  },
  fr: {
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
  },
  ...PINT_EXAMPLE_REQUESTS,
  hr: HR_EXAMPLE_REQUEST,
} satisfies Record<Exclude<EInvoiceProfile, 'en16931'>, InvoiceInput & { profile: EInvoiceProfile }>;
