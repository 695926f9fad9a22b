import * as v from 'valibot';
import { amount, calendarDate, text, wholeNumber } from '../../../invoice/textRules.js';

/**
 * The optional `ksef` object of an e-invoice request under profile ksef: what an FA(3) needs and
 * the invoice JSON has no field for. Everything else comes from the invoice itself (the NIPs from
 * seller/buyer vat_id, the rate codes from the lines' VAT categories and rates, P_6 from
 * delivery_date, OkresFa from invoicing_period, the corrected invoice from preceding_invoice).
 */
export const KSEF_LIMITS = { text: 256, rateCodes: 200, exchangeRateDecimals: 6 } as const;

/**
 * FA(3) TStawkaPodatku: the Polish rate codes. Read only as the type RateCode today; kept a value
 * (and public) as the one list of the codes FA(3) accepts.
 * @public
 */
export const RATE_CODES = [
  '23',
  '22',
  '8',
  '7',
  '5',
  '4',
  '3',
  '0 KR',
  '0 WDT',
  '0 EX',
  'zw',
  'oo',
  'np I',
  'np II',
] as const;
export type RateCode = (typeof RATE_CODES)[number];
/** The codes a line without VAT may be given explicitly (an S line's code is its rate). */
const ZERO_RATE_CODES = ['0 KR', '0 WDT', '0 EX', 'zw', 'oo', 'np I', 'np II'] as const;

const INVOICE_KINDS = ['VAT', 'KOR', 'ZAL'] as const;

/** FA(3) TFormaPlatnosci 1-7, by name. */
export const PAYMENT_FORMS = {
  cash: '1',
  card: '2',
  voucher: '3',
  cheque: '4',
  credit: '5',
  transfer: '6',
  mobile: '7',
} as const;
export type PaymentForm = keyof typeof PAYMENT_FORMS;

/** Adnotacje/PMarzy: P_PMarzy_2 travel agencies, P_PMarzy_3_1 used goods, _3_2 works of art, _3_3 antiques. */
const MARGIN_SCHEMES = ['travel_agency', 'used_goods', 'works_of_art', 'antiques'] as const;
/** Zwolnienie: P_19A the Polish VAT act, P_19B the VAT directive 2006/112/EC, P_19C another basis. */
const EXEMPTION_BASES = ['polish_law', 'eu_directive', 'other'] as const;

const short = (description: string) => text({ min: 1, max: KSEF_LIMITS.text, description });
const flag = (description: string) =>
  v.optional(v.pipe(v.boolean('must be true or false'), v.description(description)));

export const KsefFieldsSchema = v.pipe(
  v.strictObject(
    {
      kind: v.optional(
        v.pipe(
          v.picklist(INVOICE_KINDS, `must be one of ${INVOICE_KINDS.join(', ')}`),
          v.description(
            'RodzajFaktury: VAT (default, an invoice), KOR (a correction of preceding_invoice; with document_type credit_note its amounts are written negative, a decrease), ZAL (an advance invoice: the lines are the order, advance the payment received).',
          ),
        ),
      ),
      place_of_issue: v.optional(short('P_1M, the place of issue, 1 to 256 characters.')),
      corrected_ksef_number: v.optional(
        v.pipe(
          v.string('must be a string'),
          v.maxLength(36, 'must be at most 36 characters'),
          v.description(
            'KOR: the KSeF number of the corrected invoice (NrKSeFFaKorygowanej, checksum verified); absent when that invoice was issued outside KSeF (NrKSeFN).',
          ),
        ),
      ),
      correction_reason: v.optional(short('KOR: PrzyczynaKorekty, why the invoice is corrected.')),
      correction_type: v.optional(
        v.pipe(
          v.picklist([1, 2, 3], 'must be 1, 2 or 3'),
          v.description(
            'KOR: TypKorekty, when the correction takes effect: 1 at the date of the corrected invoice, 2 at the date of the correction, 3 another date.',
          ),
        ),
      ),
      advance: v.optional(
        v.strictObject(
          {
            amount: amount({
              min: 0,
              max: 1_000_000_000,
              exclusiveMin: true,
              description: 'ZAL: the advance payment received, gross, in the invoice currency (P_15).',
            }),
            received_on: calendarDate('ZAL: the date the advance was received (P_6), YYYY-MM-DD.'),
          },
          'unknown property',
        ),
      ),
      exchange_rate: v.optional(
        amount({
          min: 0,
          max: 1_000_000,
          exclusiveMin: true,
          description:
            'A foreign-currency invoice with VAT lines (required then; optional for 0 % or exempt lines only): PLN per unit of the currency (KursWaluty, at most 6 decimals), the NBP table A rate of the last working day before the tax point; the VAT is then also written in PLN (P_14_xW). Never fetched.',
        }),
      ),
      annotations: v.optional(
        v.strictObject(
          {
            cash_accounting: flag('P_16: metoda kasowa (cash accounting). Default false.'),
            self_billing: flag('P_17: samofakturowanie (the buyer issues the invoice). Default false.'),
            reverse_charge: flag(
              'P_18: odwrotne obciążenie. Default: true when a line is reverse charge (category AE, code oo).',
            ),
            split_payment: flag('P_18A: mechanizm podzielonej płatności (split payment). Default false.'),
            simplified_triangular: flag('P_23: simplified intra-EU triangular procedure. Default false.'),
            margin_scheme: v.optional(
              v.pipe(
                v.picklist(MARGIN_SCHEMES, `must be one of ${MARGIN_SCHEMES.join(', ')}`),
                v.description(
                  'PMarzy: the margin scheme (travel_agency, used_goods, works_of_art, antiques); every line is then category O and its amount goes to P_13_11.',
                ),
              ),
            ),
          },
          'unknown property',
        ),
      ),
      exemption: v.optional(
        v.strictObject(
          {
            basis: v.pipe(
              v.picklist(EXEMPTION_BASES, `must be one of ${EXEMPTION_BASES.join(', ')}`),
              v.description('P_19A the Polish VAT act, P_19B Directive 2006/112/EC, P_19C another legal basis.'),
            ),
            text: short('The provision, e.g. "art. 43 ust. 1 pkt 37 ustawy o VAT", 1 to 256 characters.'),
          },
          'unknown property',
        ),
      ),
      payment_form: v.optional(
        v.pipe(
          v.picklist(Object.keys(PAYMENT_FORMS) as [PaymentForm, ...PaymentForm[]], 'must be a payment form'),
          v.description(
            'FormaPlatnosci: cash, card, voucher, cheque, credit, transfer, mobile. Default transfer when payment.iban is given.',
          ),
        ),
      ),
      paid_on: v.optional(
        calendarDate('With amount_paid: the date it was paid (DataZaplaty, or DataZaplatyCzesciowej when partial).'),
      ),
      rate_codes: v.optional(
        v.pipe(
          v.array(
            v.strictObject(
              {
                line: wholeNumber({ min: 0, max: 199, description: 'Index into line_items, from 0.' }),
                code: v.pipe(
                  v.picklist(ZERO_RATE_CODES, `must be one of ${ZERO_RATE_CODES.join(', ')}`),
                  v.description('The P_12 code of that line.'),
                ),
              },
              'unknown property',
            ),
            'must be an array',
          ),
          v.maxLength(KSEF_LIMITS.rateCodes, `must have at most ${KSEF_LIMITS.rateCodes} entries`),
          v.description(
            'Per-line P_12 overrides for lines without VAT, only where the category does not say it (e.g. np II for a service taxed where the EU buyer is, art. 100 ust. 1 pkt 4). Default: Z 0 KR, K 0 WDT, G 0 EX, E zw, AE oo, O np I.',
          ),
        ),
      ),
    },
    'unknown property',
  ),
  v.description(
    'Poland KSeF FA(3) fields (profile ksef only): invoice kind, correction reference, advance, exchange rate, annotations (Adnotacje), exemption basis, payment form. docs/e-invoices-poland.md.',
  ),
);

export type KsefFields = v.InferOutput<typeof KsefFieldsSchema>;

/** The request field, optional (a plain VAT invoice in PLN needs none of it). */
export const KsefField = v.optional(KsefFieldsSchema);
