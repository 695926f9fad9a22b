import * as v from 'valibot';
import { decimalFromNumber, significantScale } from '../../../invoice/decimal.js';

/**
 * The `fatturapa` object of an e-invoice request with profile fatturapa: what FatturaPA 1.2.3
 * needs and the invoice JSON lacks. Every field is optional; docs/e-invoices-italy.md explains each
 * with the FatturaPA element it fills. Formats are checked here; the checks across fields (check
 * characters, Natura against the rate, the recipient code against the format) are in sdiChecks.ts
 * under the SDI's control codes.
 */
const code = <const T extends readonly string[]>(values: T, description: string) =>
  v.pipe(v.picklist(values, `must be one of ${values.join(', ')}`), v.description(description));

const range = (prefix: string, from: number, to: number, skip: number[] = []) =>
  Array.from({ length: to - from + 1 }, (_, at) => from + at)
    .filter((n) => !skip.includes(n))
    .map((n) => `${prefix}${String(n).padStart(2, '0')}`);

/** FatturaPA 1.2.3 NaturaType; the generic N2, N3 and N6 are in the schema but refused by the SDI (00445). */
const NATURA_CODES = [
  'N1', 'N2', 'N2.1', 'N2.2', 'N3', 'N3.1', 'N3.2', 'N3.3', 'N3.4', 'N3.5', 'N3.6', 'N4', 'N5',
  'N6', 'N6.1', 'N6.2', 'N6.3', 'N6.4', 'N6.5', 'N6.6', 'N6.7', 'N6.8', 'N6.9', 'N7',
] as const; // prettier-ignore
const REGIMI_FISCALI = range('RF', 1, 20, [3]);
const DOCUMENT_TYPES = ['TD01', 'TD04', 'TD24'] as const;
const PAYMENT_METHODS = range('MP', 1, 23);
const PENSION_FUNDS = range('TC', 1, 22);
const WITHHOLDING_TYPES = range('RT', 1, 6);
const WITHHOLDING_REASONS = [
  'A', 'B', 'C', 'D', 'E', 'G', 'H', 'I', 'L', 'M', 'N', 'O', 'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y',
  'L1', 'M1', 'M2', 'O1', 'V1', 'ZO',
]; // prettier-ignore

const percent = (description: string) =>
  v.pipe(
    v.number('must be a number'),
    v.minValue(0, 'must be at least 0'),
    v.maxValue(100, 'must be at most 100'),
    v.check((n) => significantScale(decimalFromNumber(n)) <= 2, 'must have at most 2 decimals'),
    v.description(description),
  );

const latin = (max: number, description: string) =>
  v.pipe(
    v.string('must be a string'),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters long`),
    v.regex(/^[\u0020-\u007E\u00A0-\u00FF]*$/, 'must be Latin-1 text (FatturaPA accepts no other characters)'),
    v.description(description),
  );

const NaturaSchema = v.strictObject(
  {
    code: code(
      NATURA_CODES,
      'Natura: why the line carries no VAT (N1 excluded art. 15, N2.1/N2.2 not subject, N3.1-N3.6 not taxable, N4 exempt, N5 margin scheme, N6.1-N6.9 reverse charge, N7 VAT paid in another EU state).',
    ),
    legal_reference: v.optional(
      latin(100, 'RiferimentoNormativo: the law that applies, e.g. "Art. 10 DPR 633/72" (at most 100 characters).'),
    ),
  },
  'unknown property',
);

export const FatturaPAFieldsSchema = v.strictObject(
  {
    transmission_format: v.optional(
      code(
        ['FPR12', 'FPA12'],
        'FormatoTrasmissione: FPR12 (default, businesses and private persons) or FPA12 (a public administration; the SDI then requires the file signed by the sender, CAdES or XAdES).',
      ),
      'FPR12',
    ),
    document_type: v.optional(
      code(
        DOCUMENT_TYPES,
        'TipoDocumento: TD01 invoice (default), TD04 credit note (default when document_type is credit_note), TD24 deferred invoice (goods delivered with transport documents).',
      ),
    ),
    regime_fiscale: v.optional(
      code(REGIMI_FISCALI, 'RegimeFiscale of the seller: RF01 ordinary (default), RF19 flat-rate (forfettario), …'),
      'RF01',
    ),
    recipient_code: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Za-z0-9]{1,10}$/, 'must be letters and digits'),
        v.description(
          'CodiceDestinatario: the 7-character SDI code of the buyer (FPR12; 0000000 with recipient_pec or for a private buyer, XXXXXXX for a foreign buyer) or the 6-character office code (FPA12). Default 0000000 for an Italian buyer, XXXXXXX otherwise.',
        ),
      ),
    ),
    recipient_pec: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.maxLength(256, 'must be at most 256 characters long'),
        v.email('must be an e-mail address'),
        v.description('PECDestinatario: the buyer’s certified e-mail (PEC), only with recipient_code 0000000.'),
      ),
    ),
    transmitter: v.optional(
      v.strictObject(
        {
          country: v.pipe(
            v.string(),
            v.regex(/^[A-Z]{2}$/, 'must be a two-letter country code'),
            v.description('IdPaese of the transmitter.'),
          ),
          id: v.pipe(
            v.string(),
            v.regex(/^[A-Z0-9]{1,28}$/, 'must be 1 to 28 capitals and digits'),
            v.description('IdCodice: the transmitter’s codice fiscale (Italy) or tax number.'),
          ),
        },
        'unknown property',
      ),
    ),
    progressive: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Za-z0-9]{1,5}$/, 'must be 1 to 5 letters or digits'),
        v.description(
          'The file’s progressive (ProgressivoInvio and the file name IT<id>_<progressive>.xml), unique per transmitter; default: the last 5 letters or digits of invoice_number.',
        ),
      ),
    ),
    seller_codice_fiscale: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Z0-9]{11,16}$/, 'must be 11 to 16 capitals or digits'),
        v.description(
          'CodiceFiscale of the seller (16 characters for a person, 11 digits for a company), check character verified.',
        ),
      ),
    ),
    buyer_codice_fiscale: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Z0-9]{11,16}$/, 'must be 11 to 16 capitals or digits'),
        v.description(
          'CodiceFiscale of the buyer: required for an Italian private buyer without a VAT number, check character verified.',
        ),
      ),
    ),
    seller_province: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Z]{2}$/, 'must be two capitals, e.g. MI'),
        v.description('Provincia of the seller’s address (Italy), e.g. MI.'),
      ),
    ),
    buyer_province: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Z]{2}$/, 'must be two capitals, e.g. RM'),
        v.description('Provincia of the buyer’s address (Italy), e.g. RM.'),
      ),
    ),
    natura: v.optional(NaturaSchema),
    line_natura: v.optional(
      v.pipe(
        v.array(
          v.strictObject(
            {
              line: v.pipe(
                v.number(),
                v.integer('must be a whole number'),
                v.minValue(0, 'must be at least 0'),
                v.description('Index in line_items (0 is the first line).'),
              ),
              ...NaturaSchema.entries,
            },
            'unknown property',
          ),
        ),
        v.maxLength(200, 'must have at most 200 entries'),
        v.description('Natura of single 0 % lines (by index), over `natura`.'),
      ),
    ),
    vat_collectability: v.optional(
      code(
        ['I', 'D', 'S'],
        'EsigibilitaIVA: I immediate (default), D deferred, S split payment (scissione dei pagamenti, public administration).',
      ),
    ),
    stamp_duty: v.optional(
      v.pipe(
        v.boolean('must be true or false'),
        v.description(
          'DatiBollo (virtual stamp duty, 2.00 EUR): default true when the lines without VAT other than exports and intra-EU supplies exceed 77.47 EUR.',
        ),
      ),
    ),
    withholding: v.optional(
      v.strictObject(
        {
          type: code(
            WITHHOLDING_TYPES,
            'TipoRitenuta: RT01 natural persons, RT02 legal persons, RT03 INPS, RT04 ENASARCO, RT05 ENPAM, RT06 other.',
          ),
          rate: percent('AliquotaRitenuta in percent, e.g. 20.'),
          reason: code(
            WITHHOLDING_REASONS,
            'CausalePagamento (the CU model’s codes), e.g. A for professional services.',
          ),
          lines: v.optional(
            v.pipe(
              v.array(v.pipe(v.number(), v.integer(), v.minValue(0))),
              v.maxLength(200),
              v.description('Indexes of the lines subject to withholding; default every line.'),
            ),
          ),
        },
        'unknown property',
      ),
    ),
    pension_fund: v.optional(
      v.strictObject(
        {
          type: code(PENSION_FUNDS, 'TipoCassa, e.g. TC22 INPS gestione separata, TC04 engineers and architects.'),
          rate: percent('AlCassa: the contribution in percent of the lines, e.g. 4.'),
          vat_rate: v.optional(percent('AliquotaIVA on the contribution; default the highest VAT rate of the lines.')),
          natura: v.optional(code(NATURA_CODES, 'Natura of the contribution when its VAT rate is 0.')),
          withholding: v.optional(
            v.pipe(v.boolean(), v.description('The contribution is subject to the withholding (Ritenuta SI).')),
          ),
        },
        'unknown property',
      ),
    ),
    payment_method: v.optional(
      code(
        PAYMENT_METHODS,
        'ModalitaPagamento: MP05 bank transfer (default when payment.iban is given; needs it), MP01 cash, MP08 card, MP12 RIBA, MP19 SEPA direct debit, …',
      ),
    ),
    payment_terms: v.optional(
      code(
        ['TP01', 'TP02', 'TP03'],
        'CondizioniPagamento: TP02 payment in full (default), TP01 in instalments, TP03 advance.',
      ),
    ),
    transport_documents: v.optional(
      v.pipe(
        v.array(
          v.strictObject(
            {
              number: latin(20, 'NumeroDDT.'),
              date: v.pipe(v.string(), v.isoDate('must be a date YYYY-MM-DD'), v.description('DataDDT.')),
            },
            'unknown property',
          ),
        ),
        v.maxLength(50),
        v.description('DatiDDT: the transport documents a deferred invoice (TD24) covers.'),
      ),
    ),
  },
  'unknown property',
);

export type FatturaPAFields = v.InferOutput<typeof FatturaPAFieldsSchema>;
export type NaturaCode = (typeof NATURA_CODES)[number];
