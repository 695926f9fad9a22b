import type * as v from 'valibot';
import type { InvoiceInput } from '../../../invoice/schema.js';
import type { VerifactuFieldsSchema } from './fields.js';

/**
 * The VERI*FACTU example (docs/e-invoices-spain.md, OpenAPI's named example "verifactu"): an F1
 * of a Madrid company to a Spanish customer with a 21 % and a 10 % line, chained to the issuer's
 * previous record. It passes every check (test/unit/einvoice/verifactu.test.ts) and its record is
 * valid for check-xml verifactu.
 */
export const EXAMPLE_VERIFACTU_REQUEST = {
  seller: {
    name: 'Ejemplo Soluciones SL',
    street: 'Calle Mayor 1',
    city: 'Madrid',
    postal_code: '28013',
    country: 'ES',
    vat_id: 'ESB12345674',
  },
  buyer: {
    name: 'Cliente Ejemplo SA',
    street: 'Avenida Diagonal 100',
    city: 'Barcelona',
    postal_code: '08019',
    country: 'ES',
    vat_id: 'ESA58818501',
  },
  invoice_number: 'F2026-0042',
  issue_date: '2026-11-30',
  currency: 'EUR',
  line_items: [
    { description: 'Consultoría técnica', quantity: 10, unit_price: 80, tax_rate: 21 },
    { description: 'Material de formación', quantity: 2, unit_price: 15.5, tax_rate: 10 },
  ],
  verifactu: {
    invoice_type: 'F1',
    previous: {
      issuer_nif: 'B12345674',
      invoice_number: 'F2026-0041',
      issue_date: '2026-11-29',
      huella: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60',
    },
  },
} satisfies InvoiceInput & { verifactu: v.InferInput<typeof VerifactuFieldsSchema> };
