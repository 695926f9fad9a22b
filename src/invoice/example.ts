import type { InvoiceInput } from './schema.js';

/** The example served by GET /v1/schema, used in the docs, the preview and the tests. It validates. */
export const EXAMPLE_INVOICE = {
  seller: {
    name: 'Northwind Studio GmbH',
    address: 'Torstraße 12\n10119 Berlin\nGermany',
    email: 'billing@northwind.example',
    phone: '+49 30 1234567',
    tax_id: 'DE123456789',
  },
  buyer: {
    name: 'Acme Robotics Inc.',
    address: '500 Market Street, Suite 400\nSan Francisco, CA 94105\nUSA',
    email: 'ap@acme.example',
  },
  invoice_number: 'INV-2026-0042',
  issue_date: '2026-11-02',
  due_date: '2026-12-02',
  currency: 'USD',
  line_items: [
    { description: 'Product design sprint (5 days)', quantity: 1, unit_price: 6400 },
    { description: 'Usability testing sessions', quantity: 6, unit_price: 350 },
    { description: 'Design system consulting (hours)', quantity: 12.5, unit_price: 140 },
    { description: 'Prototype hosting, November', quantity: 1, unit_price: 49.99 },
  ],
  tax_rate: 7.5,
  discount: 250,
  notes: 'Thank you for your business. Questions about this invoice: billing@northwind.example.',
  payment_instructions: 'Bank transfer to IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX), reference INV-2026-0042.',
} satisfies InvoiceInput;
