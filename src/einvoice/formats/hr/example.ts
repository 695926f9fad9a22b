import type { InvoiceInput } from '../../../invoice/schema.js';

/** The hr profile's example request (OpenAPI, docs/e-invoices-pint.md): valid OIBs, KPD codes, the operator. */
export const HR_EXAMPLE_REQUEST = {
  profile: 'hr',
  seller: {
    name: 'Jadran Softver d.o.o.',
    street: 'Ilica 1',
    city: 'Zagreb',
    postal_code: '10000',
    country: 'HR',
    vat_id: 'HR69435151530',
    contact_name: 'Ana Horvat',
    email: 'racuni@jadran.example',
    electronic_address: { scheme: '9934', id: 'HR69435151530' },
  },
  buyer: {
    name: 'Dalmacija Turizam d.d.',
    street: 'Riva 2',
    city: 'Split',
    postal_code: '21000',
    country: 'HR',
    vat_id: 'HR94577403194',
    electronic_address: { scheme: '9934', id: 'HR94577403194' },
  },
  invoice_number: 'HR-2026-42',
  issue_date: '2026-11-02',
  issue_time: '10:15:00',
  due_date: '2026-12-02',
  currency: 'EUR',
  operator: { name: 'Ana Horvat', oib: '69435151530' },
  line_items: [
    {
      description: 'Razvoj web aplikacije',
      quantity: 10,
      unit_price: 560,
      unit: 'HUR',
      tax_rate: 25,
      item_classification: { scheme: 'CG', code: '62.10.11' },
    },
  ],
  payment: { iban: 'HR12 1001 0051 8630 0016 0', reference: 'HR00 2026-42' },
} satisfies InvoiceInput & { profile: 'hr' };
