import type { Issue } from '../../../errors.js';
import { decimalFromNumber, significantScale } from '../../../invoice/decimal.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { checkKsefNumber } from './ksefNumber.js';
import { KSEF_LIMITS, type KsefFields, type RateCode } from './ksefFields.js';
import { isValidNip } from './nip.js';
import { partyIdOf } from './ksefParties.js';
import { rateCodeOf } from './rateCodes.js';

/**
 * The rules an FA(3) must keep that the invoice JSON does not already guarantee: those of the FA(3)
 * schema (identifier shapes, lengths, decimals, date range) and those its documentation and the VAT
 * act state (a checked NIP, a rate code FA(3) knows, the exemption's legal basis, a correction's
 * reference, the exchange rate of a foreign-currency invoice, the advance of a ZAL). Each issue
 * names the request field to change; all are reported at once.
 */
const issue = (path: string, code: string, message: string): Issue => ({ path, code, message });

/** FA(3) dates (TDataT, TData) lie between these. */
const FIRST_DATE = '2006-01-01';
const LAST_DATE = '2050-01-01';

export function lineRateCodes(prepared: PreparedInvoice, ksef: KsefFields): (RateCode | undefined)[] {
  const overrides = new Map((ksef.rate_codes ?? []).map((entry) => [entry.line, entry.code] as const));
  const margin = ksef.annotations?.margin_scheme !== undefined;
  return prepared.totals.lineTax.map((line, at) =>
    margin && line.category === 'O' && !overrides.has(at)
      ? undefined
      : rateCodeOf(line.category, line.rate, overrides.get(at)),
  );
}

export function checkKsef(
  prepared: PreparedInvoice,
  ksef: KsefFields,
  lineCodes: readonly (RateCode | undefined)[],
): Issue[] {
  return [
    ...partyIssues(prepared),
    ...lineIssues(prepared, ksef, lineCodes),
    ...kindIssues(prepared, ksef),
    ...moneyIssues(prepared, ksef),
  ];
}

function partyIssues({ invoice }: PreparedInvoice): Issue[] {
  const issues: Issue[] = [];
  const seller = partyIdOf(invoice.seller);
  if (seller.kind !== 'nip')
    issues.push(
      issue(
        'seller.vat_id',
        'ksef_seller_nip',
        'must be PL and the seller’s 10-digit NIP (FA(3) Podmiot1/NIP), e.g. PL5250000009',
      ),
    );
  for (const role of ['seller', 'buyer'] as const) {
    const id = partyIdOf(invoice[role]);
    if (id.kind === 'nip' && !isValidNip(id.nip))
      issues.push(
        issue(
          `${role}.vat_id`,
          'ksef_nip_checksum',
          `NIP ${id.nip} fails its checksum (weights 6 5 7 2 3 4 5 6 7, modulo 11)`,
        ),
      );
    if (id.kind === 'eu' && !/^[0-9A-Z+*]{1,12}$/.test(id.number))
      issues.push(
        issue(
          `${role}.vat_id`,
          'ksef_vat_id',
          'an EU VAT number has at most 12 digits, capitals, + or * after its prefix (FA(3) NrVatUE)',
        ),
      );
    if (id.kind === 'other' && id.number.length > 50)
      issues.push(issue(`${role}.vat_id`, 'ksef_vat_id', 'must be at most 50 characters (FA(3) NrID)'));
    const party = invoice[role];
    if (party.phone !== undefined && party.phone.trim().length > 16)
      issues.push(issue(`${role}.phone`, 'ksef_phone', 'must be at most 16 characters in FA(3) (TNumerTelefonu)'));
    if (party.name.trim() === '')
      issues.push(issue(`${role}.name`, 'ksef_text', 'must contain a character other than a space'));
  }
  const { seller: party } = invoice;
  if (
    ![party.street, party.address, party.city, party.postal_code].some(
      (part) => part !== undefined && part.trim() !== '',
    )
  )
    issues.push(
      issue(
        'seller.street',
        'ksef_seller_address',
        'the seller’s address is required in FA(3) (Podmiot1/Adres): give street, postal_code and city',
      ),
    );
  return issues;
}

function lineIssues(
  prepared: PreparedInvoice,
  ksef: KsefFields,
  lineCodes: readonly (RateCode | undefined)[],
): Issue[] {
  const { invoice, totals } = prepared;
  const issues: Issue[] = [];
  const margin = ksef.annotations?.margin_scheme !== undefined;
  invoice.line_items.forEach((line, at) => {
    const path = `line_items[${at}]`;
    const tax = totals.lineTax[at]!;
    if (tax.category === 'S' && lineCodes[at] === undefined)
      issues.push(
        issue(
          `${path}.tax_rate`,
          'ksef_rate_code',
          'must be a Polish VAT rate FA(3) knows: 23, 22, 8, 7, 5, 4 or 3 (0 with a category: Z, K, G, E, AE, O)',
        ),
      );
    if (margin && tax.category !== 'O')
      issues.push(
        issue(
          `${path}.tax_category`,
          'ksef_margin_scheme',
          'must be O under a margin scheme (the margin’s VAT is not shown, P_13_11)',
        ),
      );
    if (significantScale(decimalFromNumber(line.quantity)) > 6)
      issues.push(issue(`${path}.quantity`, 'ksef_decimals', 'must have at most 6 decimals in FA(3) (P_8B)'));
    if (significantScale(decimalFromNumber(line.unit_price)) > 8)
      issues.push(issue(`${path}.unit_price`, 'ksef_decimals', 'must have at most 8 decimals in FA(3) (P_9A)'));
    if (line.item_code !== undefined && line.item_code.trim().length > 50)
      issues.push(issue(`${path}.item_code`, 'ksef_length', 'must be at most 50 characters in FA(3) (Indeks)'));
    if (line.description.trim() === '')
      issues.push(issue(`${path}.description`, 'ksef_text', 'must contain a character other than a space'));
  });
  const seen = new Set<number>();
  (ksef.rate_codes ?? []).forEach((entry, at) => {
    const path = `ksef.rate_codes[${at}].line`;
    if (entry.line >= invoice.line_items.length)
      issues.push(issue(path, 'ksef_rate_code', `names no line (the invoice has ${invoice.line_items.length})`));
    else if (totals.lineTax[entry.line]!.category === 'S')
      issues.push(issue(path, 'ksef_rate_code', 'names a standard-rated line, whose code is its rate'));
    if (seen.has(entry.line)) issues.push(issue(path, 'ksef_rate_code', 'names a line already given a code'));
    seen.add(entry.line);
  });
  const exempt = lineCodes.some((code) => code === 'zw');
  if (exempt && !ksef.exemption)
    issues.push(
      issue(
        'ksef.exemption',
        'ksef_exemption_basis',
        'is required with an exempt (E, zw) line: the legal basis of the exemption (P_19A, P_19B or P_19C)',
      ),
    );
  if (!exempt && ksef.exemption)
    issues.push(issue('ksef.exemption', 'ksef_exemption_basis', 'is only for an invoice with an exempt (E, zw) line'));
  if (lineCodes.includes('oo') && ksef.annotations?.reverse_charge === false)
    issues.push(
      issue(
        'ksef.annotations.reverse_charge',
        'ksef_reverse_charge',
        'cannot be false with a reverse-charge (AE, oo) line',
      ),
    );
  return issues;
}

function kindIssues({ invoice }: PreparedInvoice, ksef: KsefFields): Issue[] {
  const issues: Issue[] = [];
  const kind = ksef.kind ?? 'VAT';
  if (kind === 'KOR') {
    if (!invoice.preceding_invoice)
      issues.push(
        issue(
          'preceding_invoice',
          'ksef_correction_reference',
          'is required for a correction (KOR): the number and issue_date of the corrected invoice',
        ),
      );
    else if (!invoice.preceding_invoice.issue_date)
      issues.push(
        issue(
          'preceding_invoice.issue_date',
          'ksef_correction_reference',
          'is required for a correction (KOR, DataWystFaKorygowanej)',
        ),
      );
    if (ksef.corrected_ksef_number !== undefined) {
      const checked = checkKsefNumber(ksef.corrected_ksef_number);
      if (!checked.valid)
        issues.push(
          issue(
            'ksef.corrected_ksef_number',
            checked.reason === 'malformed' ? 'ksef_number_malformed' : 'ksef_number_checksum',
            checked.reason === 'malformed'
              ? 'must be a KSeF number: NIP-YYYYMMDD-12 hex digits-checksum, e.g. 5250000009-20260301-0100001AF629-0C'
              : 'fails its CRC-8 checksum (the last two hex digits)',
          ),
        );
    }
  } else {
    for (const field of ['corrected_ksef_number', 'correction_reason', 'correction_type'] as const)
      if (ksef[field] !== undefined)
        issues.push(issue(`ksef.${field}`, 'ksef_kind', 'is only for a correction (kind KOR)'));
    if (invoice.document_type === 'credit_note')
      issues.push(
        issue(
          'document_type',
          'ksef_kind',
          'a credit note is a correction in FA(3): give ksef.kind KOR with preceding_invoice',
        ),
      );
  }
  if (kind === 'ZAL' && !ksef.advance)
    issues.push(
      issue('ksef.advance', 'ksef_advance', 'is required for an advance invoice (ZAL): the amount received and when'),
    );
  if (kind !== 'ZAL' && ksef.advance)
    issues.push(issue('ksef.advance', 'ksef_kind', 'is only for an advance invoice (kind ZAL)'));
  const dates: [string, string | undefined][] = [
    ['issue_date', invoice.issue_date],
    ['due_date', invoice.due_date],
    ['delivery_date', invoice.delivery_date],
    ['preceding_invoice.issue_date', invoice.preceding_invoice?.issue_date],
    ['ksef.advance.received_on', ksef.advance?.received_on],
    ['ksef.paid_on', ksef.paid_on],
  ];
  for (const [path, date] of dates)
    if (date !== undefined && (date < FIRST_DATE || date > LAST_DATE))
      issues.push(issue(path, 'ksef_date', `must lie between ${FIRST_DATE} and ${LAST_DATE} in FA(3)`));
  return issues;
}

function moneyIssues(prepared: PreparedInvoice, ksef: KsefFields): Issue[] {
  const { invoice, totals } = prepared;
  const issues: Issue[] = [];
  if (totals.discount !== 0n)
    issues.push(
      issue('discount', 'ksef_discount', 'FA(3) has no invoice-level discount: lower the lines’ unit prices instead'),
    );
  if (invoice.rounding_amount !== undefined)
    issues.push(issue('rounding_amount', 'ksef_rounding', 'FA(3) has no rounding of the amount due: leave it out'));
  if (totals.amountPaid !== 0n && ksef.paid_on === undefined)
    issues.push(
      issue('ksef.paid_on', 'ksef_paid_on', 'is required with amount_paid: the date it was paid (DataZaplaty)'),
    );
  // FA(3) states the VAT in PLN (P_14_xW) only where there is Polish VAT: a foreign-currency
  // invoice of 0 % intra-EU supplies or exports alone needs no rate (the ministry's examples 22, 23).
  const polishVat = totals.groups.some((group) => group.category === 'S');
  if (invoice.currency !== 'PLN' && polishVat && ksef.exchange_rate === undefined)
    issues.push(
      issue(
        'ksef.exchange_rate',
        'ksef_exchange_rate',
        `is required for an invoice in ${invoice.currency} with VAT: PLN per unit (NBP table A), so the VAT is also stated in PLN (P_14_xW)`,
      ),
    );
  if (invoice.currency === 'PLN' && ksef.exchange_rate !== undefined)
    issues.push(
      issue('ksef.exchange_rate', 'ksef_exchange_rate', 'is only for an invoice in a currency other than PLN'),
    );
  if (
    ksef.exchange_rate !== undefined &&
    significantScale(decimalFromNumber(ksef.exchange_rate)) > KSEF_LIMITS.exchangeRateDecimals
  )
    issues.push(issue('ksef.exchange_rate', 'ksef_decimals', 'must have at most 6 decimals (KursWaluty)'));
  if (ksef.advance !== undefined) {
    const advance = decimalFromNumber(ksef.advance.amount);
    if (significantScale(advance) > totals.digits)
      issues.push(
        issue(
          'ksef.advance.amount',
          'ksef_decimals',
          `must have at most ${totals.digits} decimals in ${invoice.currency}`,
        ),
      );
    else if (advance.coefficient * 10n ** BigInt(totals.digits) > totals.total * 10n ** BigInt(advance.scale))
      issues.push(
        issue('ksef.advance.amount', 'ksef_advance', 'must not exceed the order’s total (the lines with VAT)'),
      );
  }
  return issues;
}
