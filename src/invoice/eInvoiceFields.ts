import * as v from 'valibot';
import { CURRENCY_CODES } from './currencies.js';
import { describeSchemes, EAS_CODES, ICD_CODES, IDENTIFIER_SCHEMES } from './partyIdentifiers.js';
import { amount, calendarDate, text, wholeNumber } from './textRules.js';

/** PINT AE's code list of credit note reasons (ibr-001-ae): the cases of article 61(1) of the UAE VAT Decree-Law (DL8.61.1.A to E), and VD, a volume discount. */
const UAE_CREDIT_NOTE_REASONS = ['DL8.61.1.A', 'DL8.61.1.B', 'DL8.61.1.C', 'DL8.61.1.D', 'DL8.61.1.E', 'VD'] as const;

/**
 * The optional fields the national e-invoice profiles need (XRechnung, Peppol BIS Billing 3.0,
 * France's BR-FR), with their EN 16931 business terms. Every other route accepts and ignores
 * them; the e-invoice routes write them into the XML under every profile (they are EN 16931
 * terms). Kept apart from the base schemas so that those stay readable.
 */
const E_INVOICE_LIMITS = { identifier: 125, businessProcess: 200, legalNote: 1000 } as const;

const schemeOf = (codes: readonly [string, ...string[]]) =>
  v.pipe(v.picklist(codes, `must be one of ${codes.join(', ')}`), v.description(`Scheme: ${describeSchemes(codes)}.`));

const identifierText = (what: string) =>
  text({
    min: 1,
    max: E_INVOICE_LIMITS.identifier,
    description: `The ${what}, 1 to ${E_INVOICE_LIMITS.identifier} characters, in its scheme's format.`,
  });

/** The scheme's own format (identifiers.ts); reported on `id`. */
const schemeIdOk = <TValue extends { scheme?: string | undefined; id: string }>(value: TValue) => {
  const known = value.scheme === undefined ? undefined : IDENTIFIER_SCHEMES.get(value.scheme);
  return known === undefined || known.valid(value.id);
};
const schemeIdMessage = (issue: { input: unknown }) => {
  const known = IDENTIFIER_SCHEMES.get((issue.input as { scheme: string }).scheme);
  return `is not a valid ${known?.name ?? 'identifier'}: must be ${known?.format ?? 'valid'}`;
};

/** Added to PartySchema (seller, buyer, ship_to). */
export const E_INVOICE_PARTY_FIELDS = {
  electronic_address: v.optional(
    v.pipe(
      v.strictObject({ scheme: schemeOf(EAS_CODES), id: identifierText('electronic address') }, 'unknown property'),
      v.forward(v.check(schemeIdOk, schemeIdMessage), ['id']),
      v.description(
        'Electronic address where the party receives e-invoices (EN 16931 BT-34 seller, BT-49 buyer, with the EAS scheme BT-34-1/BT-49-1), e.g. { "scheme": "0208", "id": "0123456749" }. Required by XRechnung, Peppol and France.',
      ),
    ),
  ),
  legal_registration: v.optional(
    v.pipe(
      v.strictObject(
        {
          scheme: v.optional(schemeOf(ICD_CODES)),
          id: identifierText('legal registration identifier'),
          issuer: v.optional(
            text({
              min: 1,
              max: E_INVOICE_LIMITS.identifier,
              description:
                'The authority that issued it (UAE BTAE-12, required by pint-ae for the trade licence, e.g. "Dubai Department of Economy and Tourism"); other profiles ignore it.',
            }),
          ),
        },
        'unknown property',
      ),
      v.forward(v.check(schemeIdOk, schemeIdMessage), ['id']),
      v.description(
        'The party\'s legal registration identifier (EN 16931 BT-30 seller, BT-47 buyer; scheme BT-30-1/BT-47-1, ISO/IEC 6523), e.g. the French SIREN { "scheme": "0002", "id": "732829320" }. Required for a French seller; it also identifies a seller without VAT identifier (category O).',
      ),
    ),
  ),
  country_subdivision: v.optional(
    text({
      min: 1,
      max: 50,
      description:
        'Country subdivision (EN 16931 BT-39 seller, BT-54 buyer, BT-79 deliver-to), e.g. the UAE emirate code DXB, AUH, SHJ (required by pint-ae); 1 to 50 characters.',
    }),
  ),
  tax_registration_number: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^[0-9A-Za-z][0-9A-Za-z-]{1,39}$/, 'must be 2 to 40 letters, digits and dashes'),
      v.description(
        "The party's tax registration number as its tax authority issues it, without country prefix (Peppol PINT BT-31 seller, BT-48 buyer): Australian ABN, New Zealand GST number, Singapore GST registration number (UEN or M-series), Japanese qualified-invoice registration number (T + 13 digits), Malaysian TIN, UAE TRN. Under a pint-* profile it is written as the tax identifier and checked with the seller's or buyer's country's format and check digits; other profiles do not write it. The PDF prints it in the party block (ABN, GST No., GST Reg. No., TRN, TIN, 登録番号 by the party's country), and an Australian, New Zealand, Singapore or UAE seller's invoice with it is titled \"Tax Invoice\" (a UAE credit note \"Tax Credit Note\").",
      ),
    ),
  ),
};

const LegalNote = (code: string, what: string) =>
  v.optional(
    text({
      min: 1,
      max: E_INVOICE_LIMITS.legalNote,
      description: `${what} (EN 16931 BT-22 with subject code ${code}), 1 to ${E_INVOICE_LIMITS.legalNote} characters. Default: the statutory wording.`,
    }),
  );

/** Added to the invoice schema. */
export const E_INVOICE_INVOICE_FIELDS = {
  tax_currency: v.optional(
    v.strictObject(
      {
        code: v.pipe(
          v.picklist(CURRENCY_CODES, `must be one of ${CURRENCY_CODES.join(', ')}`),
          v.description('The tax accounting currency (BT-6), ISO 4217, other than the invoice currency.'),
        ),
        exchange_rate: amount({
          min: 0,
          max: 1_000_000,
          exclusiveMin: true,
          description:
            "Units of the tax currency for one unit of the invoice currency, above 0 (the rate the seller applies; never fetched). The VAT total in the tax currency (BT-111) is the VAT total times this rate, rounded half away from zero to the tax currency's decimals.",
        }),
      },
      'unknown property',
    ),
  ),
  tax_exemption_code: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^[A-Z0-9][A-Z0-9.-]{1,39}$/, 'must be an exemption reason code such as VATEX-AE-EDU'),
      v.description(
        'The VAT exemption reason code of exempt (E) lines (EN 16931 BT-121 / PINT IBT-186), e.g. VATEX-AE-EDU; required by pint-ae for exempt lines. Other categories keep their VATEX defaults.',
      ),
    ),
  ),
  credit_note_reason_code: v.optional(
    v.pipe(
      v.picklist(UAE_CREDIT_NOTE_REASONS, `must be one of ${UAE_CREDIT_NOTE_REASONS.join(', ')}`),
      v.description(
        'The UAE credit note reason code (PINT AE BTAE-03), required by pint-ae on a credit note: DL8.61.1.A the supply was cancelled, DL8.61.1.B the tax treatment changed with the nature of the supply, DL8.61.1.C the agreed consideration was altered (e.g. bad debt relief), DL8.61.1.D goods or services were returned, DL8.61.1.E tax was charged or applied in error (these four with preceding_invoice), VD volume discount (without preceding_invoice). Other profiles do not write it.',
      ),
    ),
  ),
  issue_time: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/, 'must be a time hh:mm:ss, such as 14:05:00'),
      v.description("Issue time hh:mm:ss (Croatia's HR-BT-2, required by the hr profile)."),
    ),
  ),
  operator: v.optional(
    v.strictObject(
      {
        name: text({
          min: 1,
          max: E_INVOICE_LIMITS.identifier,
          description: 'The operator who issues the invoice (HR-BT-4), 1 to 125 characters.',
        }),
        oib: v.pipe(
          v.string('must be a string'),
          v.regex(/^[0-9]{11}$/, 'must be an OIB: 11 digits'),
          v.description("The operator's OIB (HR-BT-5), 11 digits with its ISO 7064 check digit."),
        ),
      },
      'unknown property',
    ),
  ),
  transaction_type: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.regex(/^[01]{8}$/, 'must be 8 characters 0 or 1, such as 00000000'),
      v.description(
        'The UAE invoice transaction type flags (BTAE-02), 8 characters 0 or 1 (free trade zone, deemed supply, margin scheme, summary invoice, continuous supply, disclosed agent billing, e-commerce, exports); pint-ae writes 00000000 when absent and supports only that.',
      ),
    ),
  ),
  business_process: v.optional(
    text({
      min: 1,
      max: E_INVOICE_LIMITS.businessProcess,
      description:
        'Business process (EN 16931 BT-23), 1 to 200 characters. Peppol and XRechnung default to urn:fdc:peppol.eu:2017:poacc:billing:01:1.0; France requires its invoicing framework code: B1 (goods), S1 (services), M1 (mixed), or B2/S2/M2 (already paid), B4/S4/M4 (final after a down payment), S3, S5, S6, B7/S7, B8/S8/M8, B9/S9/M9.',
    }),
  ),
  delivery_date: v.optional(calendarDate('Actual delivery date (EN 16931 BT-72), YYYY-MM-DD.')),
  invoicing_period: v.optional(
    v.pipe(
      v.strictObject(
        {
          start: calendarDate('First day of the invoicing period (EN 16931 BT-73), YYYY-MM-DD.'),
          end: calendarDate('Last day of the invoicing period (EN 16931 BT-74), YYYY-MM-DD, not before start.'),
        },
        'unknown property',
      ),
      v.forward(
        v.check((period) => period.end >= period.start, 'must not be before start'),
        ['end'],
      ),
      v.description('Invoicing period (EN 16931 BG-14).'),
    ),
  ),
  legal_notes: v.optional(
    v.pipe(
      v.strictObject(
        {
          recovery_fee: LegalNote('PMT', 'The fixed recovery-fee notice'),
          late_payment_penalties: LegalNote('PMD', 'The late-payment penalties notice'),
          early_payment_discount: LegalNote('AAB', 'The early-payment discount notice (or that there is none)'),
          late_fee_annual_percent: v.optional(
            amount({
              min: 0,
              max: 100,
              description:
                'Writes late_payment_penalties from a yearly late-fee rate in percent (as POST /v1/late-fee uses it), 0 to 100, when that note is not given.',
            }),
          ),
          discount_percent: v.optional(
            amount({
              min: 0,
              max: 100,
              exclusiveMin: true,
              description:
                'Writes early_payment_discount from an early-payment discount: D of "D/X Net N" terms as POST /v1/payment-terms reads them, in percent, above 0 to 100; with discount_days.',
            }),
          ),
          discount_days: v.optional(
            wholeNumber({
              min: 0,
              max: 3650,
              description:
                'X of "D/X Net N": days after the invoice date within which discount_percent applies, 0 to 3650; with discount_percent.',
            }),
          ),
        },
        'unknown property',
      ),
      v.forward(
        v.check(
          (notes) => (notes.discount_percent === undefined) === (notes.discount_days === undefined),
          'must be given together with discount_percent',
        ),
        ['discount_days'],
      ),
      v.description(
        "France's mandatory legal notes (BR-FR-05): recovery fee (PMT), late-payment penalties (PMD), early-payment discount (AAB), written as invoice notes with their subject codes. Give the object (even {}) to have the missing ones written: the EUR 40 recovery fee of art. D441-5 Code de commerce, penalties at three times the legal interest rate (or late_fee_annual_percent), no early-payment discount (or the one of discount_percent and discount_days).",
      ),
    ),
  ),
};
