import type * as v from 'valibot';
import type { InvoiceInput } from '../../../invoice/schema.js';
import type { KsefFieldsSchema } from './ksefFields.js';

/**
 * A Polish VAT invoice under profile ksef (the OpenAPI example, the docs' validate example): a
 * seller and buyer with checked NIPs, 23 % and 8 % lines, an exempt line with its legal basis,
 * split payment, a bank account.
 */
export const KSEF_EXAMPLE = {
  profile: 'ksef',
  seller: {
    name: 'Kowalski Software sp. z o.o.',
    street: 'ul. Kwiatowa 1 m. 2',
    postal_code: '00-001',
    city: 'Warszawa',
    country: 'PL',
    vat_id: 'PL5250000009',
    email: 'faktury@kowalski.example',
  },
  buyer: {
    name: 'Nowak Handel S.A.',
    street: 'ul. Polna 5',
    postal_code: '30-001',
    city: 'Kraków',
    country: 'PL',
    vat_id: 'PL7770000005',
  },
  invoice_number: 'FV/2026/03/0042',
  issue_date: '2026-03-02',
  due_date: '2026-03-16',
  delivery_date: '2026-02-27',
  currency: 'PLN',
  line_items: [
    { description: 'Wdrożenie systemu (usługa)', quantity: 40, unit_price: 250, tax_rate: 23, unit: 'HUR' },
    { description: 'Posiłki dla uczestników szkolenia', quantity: 12, unit_price: 45.5, tax_rate: 8 },
    { description: 'Szkolenie zawodowe', quantity: 1, unit_price: 4000, tax_rate: 0, tax_category: 'E' },
  ],
  payment: { iban: 'PL61109010140000071219812874' },
  ksef: {
    place_of_issue: 'Warszawa',
    exemption: { basis: 'polish_law', text: 'art. 43 ust. 1 pkt 29 lit. b ustawy o VAT' },
    annotations: { split_payment: true },
  },
} satisfies InvoiceInput & { profile: 'ksef'; ksef: v.InferInput<typeof KsefFieldsSchema> };
