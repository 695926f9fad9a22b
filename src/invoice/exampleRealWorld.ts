import type { InvoiceInput } from './schema.js';

/**
 * The example of the real-world fields (GET /v1/schema `example_real_world`, docs/invoice.md, the
 * preview, the tests): a German invoice with goods at 19 % and 7 %, a discount shared by both
 * groups, an amount already paid, a ship-to address, a purchase order and bank details.
 */
export const EXAMPLE_REAL_WORLD_INVOICE = {
  seller: {
    name: 'Northwind Studio GmbH',
    street: 'Torstraße 12',
    postal_code: '10119',
    city: 'Berlin',
    country: 'DE',
    vat_id: 'DE123456789',
    email: 'billing@northwind.example',
  },
  buyer: {
    name: 'Kaffeerösterei Müller KG',
    contact_name: 'Anna Müller',
    street: 'Marktplatz 3',
    postal_code: '80331',
    city: 'München',
    country: 'DE',
    vat_id: 'DE987654321',
  },
  ship_to: {
    name: 'Kaffeerösterei Müller KG, Lager',
    street: 'Industriestraße 40',
    postal_code: '85748',
    city: 'Garching',
    country: 'DE',
  },
  invoice_number: 'RE-2026-0117',
  issue_date: '2026-11-02',
  due_date: '2026-11-16',
  currency: 'EUR',
  locale: 'de-DE',
  purchase_order: 'PO-55120',
  buyer_reference: '04011000-12345-34',
  line_items: [
    {
      description: 'Espressomaschine Typ S2',
      item_code: 'ESP-S2',
      quantity: 2,
      unit: 'C62',
      unit_price: 1890,
      tax_rate: 19,
    },
    { description: 'Einrichtung und Schulung vor Ort', quantity: 6.5, unit: 'HUR', unit_price: 95, tax_rate: 19 },
    {
      description: 'Kaffeebohnen Hausmischung',
      item_code: 'KB-1000',
      quantity: 25,
      unit: 'KGM',
      unit_price: 18.4,
      tax_rate: 7,
    },
    { description: 'Fachbuch „Die Kunst des Röstens“', quantity: 3, unit: 'C62', unit_price: 34.9, tax_rate: 7 },
  ],
  discount: 150,
  amount_paid: 1000,
  custom_fields: [{ label: 'Kundennummer', value: 'K-4711' }],
  accent_color: '#8a3b12',
  payment: {
    account_name: 'Northwind Studio GmbH',
    iban: 'DE89370400440532013000',
    bic: 'COBADEFFXXX',
    reference: 'RE-2026-0117',
  },
  notes: 'Vielen Dank für Ihren Auftrag.',
} satisfies InvoiceInput;
