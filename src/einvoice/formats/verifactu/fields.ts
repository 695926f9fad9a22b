import * as v from 'valibot';
import { calendarDate, text } from '../../../invoice/textRules.js';
import { EXEMPTIONS, ID_TYPES, INVOICE_TYPES, QUALIFICATIONS, REGIME_KEYS } from './codes.js';

/**
 * The `verifactu` object of a request: what Spain's billing record (RegistroAlta) needs beyond the
 * invoice JSON. Every field is optional; docs/e-invoices-spain.md explains each with the AEAT
 * element it fills. Shapes are checked here; the rules across fields, with AEAT's error codes,
 * are in checks.ts.
 */
const code = <const T extends readonly string[]>(values: T, description: string) =>
  v.pipe(v.picklist(values, `must be one of ${values.join(', ')}`), v.description(description));

const flag = (description: string) =>
  v.optional(v.pipe(v.boolean('must be true or false'), v.description(description)));

/** NumSerieFactura: 1 to 60 printable ASCII characters without " ' < > = (error 1287). */
const serialNumber = (description: string) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(60, 'must be at most 60 characters long (NumSerieFactura)'),
    v.regex(/^[\u0020-\u007E]*$/, 'must be printable ASCII (NumSerieFactura, error 1130)'),
    v.regex(/^[^"'<>=]*$/, 'must not contain " \' < > or = (error 1287)'),
    v.description(description),
  );

const nif = (description: string) =>
  v.pipe(
    v.string('must be a string'),
    v.regex(/^[0-9A-Z]{9}$/, 'must be a Spanish NIF: 9 capitals or digits'),
    v.description(description),
  );

const InvoiceReferenceSchema = v.strictObject(
  {
    issuer_nif: v.optional(nif('The issuer’s NIF of that invoice; default the seller’s.')),
    invoice_number: serialNumber('Its series and number (NumSerieFactura).'),
    issue_date: calendarDate('Its issue date, YYYY-MM-DD.'),
  },
  'unknown property',
);

/** A list of 1 to 1000 invoices (FacturasRectificadas, FacturasSustituidas). */
const invoiceList = (description: string) =>
  v.pipe(
    v.array(InvoiceReferenceSchema, 'must be an array of invoices'),
    v.minLength(1, 'must name at least one invoice'),
    v.maxLength(1000, 'must name at most 1000 invoices'),
    v.description(description),
  );

const percent = (description: string) =>
  v.pipe(
    v.number('must be a number'),
    v.minValue(0, 'must be at least 0'),
    v.maxValue(100, 'must be at most 100'),
    v.check(
      (n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9,
      'must have at most 2 decimals',
    ),
    v.description(description),
  );

const money = (description: string) =>
  v.pipe(
    v.number('must be a number'),
    v.finite('must be a finite number'),
    v.check((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'must have at most 2 decimals'),
    v.description(description),
  );

const VatGroupSchema = v.strictObject(
  {
    rate: percent('The VAT group this entry qualifies: its rate (tax_rate of its lines).'),
    category: v.optional(
      code(['S', 'Z', 'E', 'AE', 'K', 'G', 'O'], 'Its EN 16931 category, when two groups share a rate.'),
    ),
    qualification: v.optional(
      code(
        [...QUALIFICATIONS, ...EXEMPTIONS],
        'CalificacionOperacion S1 (taxed), S2 (reverse charge), N1/N2 (not subject), or OperacionExenta E1-E6 (E7, E8 IGIC only) with the exemption’s cause. Default: S1 for S and Z, S2 for AE, E5 for K, E2 for G; E and O lines must name theirs.',
      ),
    ),
    regime: v.optional(code(REGIME_KEYS, 'ClaveRegimen of this group; default the object’s regime.')),
    surcharge_rate: v.optional(
      percent(
        'TipoRecargoEquivalencia: the equivalence surcharge (recargo de equivalencia) of a retailer buyer, e.g. 5.2 with 21 %, 1.4 with 10 %, 0.5 with 4 %.',
      ),
    ),
  },
  'unknown property',
);

const PreviousRecordSchema = v.strictObject(
  {
    issuer_nif: nif('IDEmisorFactura of the previous record of this billing system.'),
    invoice_number: serialNumber('Its NumSerieFactura.'),
    issue_date: calendarDate('Its FechaExpedicionFactura, YYYY-MM-DD.'),
    huella: v.pipe(
      v.string('must be a string'),
      v.regex(/^[0-9A-F]{64}$/, 'must be 64 upper-case hexadecimal characters, the SHA-256 huella (error 1262, 2003)'),
      v.description('Its Huella, 64 upper-case hexadecimal characters.'),
    ),
  },
  'unknown property',
);

export const VerifactuFieldsSchema = v.strictObject(
  {
    mode: v.optional(
      code(
        ['verifactu', 'no_verifactu'],
        'verifactu (default): the records go to AEAT as they are made, the QR points at ValidarQR and the PDF says VERI*FACTU; no_verifactu: the issuer keeps and signs the records, the QR points at ValidarQRNoVerifactu.',
      ),
      'verifactu',
    ),
    environment: v.optional(
      code(
        ['production', 'test'],
        'AEAT host the QR names: production, or test (prewww2.aeat.es). Default: production.',
      ),
    ),
    record: v.optional(
      code(
        ['registration', 'cancellation'],
        'registration (default): RegistroAlta; cancellation: RegistroAnulacion of this invoice.',
      ),
      'registration',
    ),
    invoice_type: v.optional(
      code(
        INVOICE_TYPES,
        'TipoFactura: F1 invoice (default), F2 simplified, F3 replacing simplified invoices, R1-R4 rectifying (R4 default for a credit note), R5 rectifying a simplified invoice.',
      ),
    ),
    correction: v.optional(
      code(
        ['substitution', 'differences'],
        'TipoRectificativa of an R type: substitution (S, the amounts replace the corrected invoice’s; corrected_amounts required) or differences (I, default: the amounts are the change).',
      ),
    ),
    corrected_invoices: v.optional(
      invoiceList('FacturasRectificadas of an R type; default the invoice’s preceding_invoice.'),
    ),
    corrected_amounts: v.optional(
      v.strictObject(
        {
          base: money('BaseRectificada: the corrected invoice’s taxable amount.'),
          tax: money('CuotaRectificada: its tax.'),
          surcharge: v.optional(money('CuotaRecargoRectificado: its equivalence surcharge.')),
        },
        'unknown property',
      ),
    ),
    replaced_invoices: v.optional(invoiceList('FacturasSustituidas of an F3: the simplified invoices it replaces.')),
    tax: v.optional(
      code(['IVA', 'IGIC', 'IPSI'], 'Impuesto: IVA (default), IGIC (Canary Islands) or IPSI (Ceuta, Melilla).'),
      'IVA',
    ),
    regime: v.optional(code(REGIME_KEYS, 'ClaveRegimen of every group that names none: 01 general (default).'), '01'),
    vat_groups: v.optional(
      v.pipe(
        v.array(VatGroupSchema, 'must be an array of VAT groups'),
        v.maxLength(12, 'must have at most 12 entries (DetalleDesglose)'),
        v.description('The qualification of each VAT group of the invoice, matched by rate (and category).'),
      ),
    ),
    description: v.optional(
      text({
        min: 1,
        max: 500,
        description: 'DescripcionOperacion, 1 to 500 characters; default the first line’s description.',
      }),
    ),
    operation_date: v.optional(calendarDate('FechaOperacion, when it differs from the issue date.')),
    simplified_art_7273: flag(
      'FacturaSimplificadaArt7273 = S: a full invoice qualified under art. 7.2/7.3 RD 1619/2012.',
    ),
    without_recipient_art_61d: flag(
      'FacturaSinIdentifDestinatarioArt61d = S: an F2 or R5 issued without the recipient (art. 6.1.d).',
    ),
    buyer_id_type: v.optional(
      code(
        ID_TYPES,
        'IDType of a buyer identified without a Spanish NIF: 02 EU VAT number (default for an EU vat_id), 03 passport, 04 official document of the country of residence, 05 residence certificate, 06 other (default), 07 not registered (a Spanish buyer without NIF).',
      ),
    ),
    external_reference: v.optional(text({ min: 1, max: 60, description: 'RefExterna, returned in AEAT’s answer.' })),
    previous: v.optional(PreviousRecordSchema),
    soap: flag('Answer the message inside the SOAP 1.1 envelope AEAT’s web service takes.'),
  },
  'unknown property',
);

/**
 * The optional `verifactu` object as every route that takes it publishes it (the e-invoice routes,
 * /v1/invoice.pdf and /v1/invoice/validate): one schema, so that MCP's tools/list names it once.
 */
export const VerifactuRequestField = v.optional(
  v.pipe(
    VerifactuFieldsSchema,
    v.description(
      "Spain, VERI*FACTU (docs/e-invoices-spain.md): the billing record's fields, checked with AEAT's error codes before payment. On /v1/invoice.pdf it prints AEAT's QR tributario at the top of page 1; on /v1/e-invoice/verifactu.xml it makes the RegistroAlta.",
    ),
  ),
);

export type VerifactuFields = v.InferOutput<typeof VerifactuFieldsSchema>;
export type VatGroupFields = v.InferOutput<typeof VatGroupSchema>;
export type InvoiceReference = v.InferOutput<typeof InvoiceReferenceSchema>;
