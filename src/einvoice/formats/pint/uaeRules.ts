import { currencyDigits } from '../../../invoice/currencies.js';
import type { Rule } from '../../rules.js';
import { blank, rule } from '../ruleHelpers.js';
import { productDecimals, sellerTaxNumber, taxNumberFormat, when } from './ruleParts.js';

/** Peppol PINT AE's rules a request of this service can break (the UAE's ibr-*-ae, ../shared/einvoice/pint/ae). */
export const UAE_RULES: readonly Rule[] = [
  taxNumberFormat('ibr-132-ae'),
  sellerTaxNumber('ibr-134-ae', 'TRN'),
  rule(
    'ibr-150-ae',
    "the seller's legal registration (BT-30, the trade licence) is required: seller.legal_registration",
    (c) =>
      when(
        c.invoice.seller.legal_registration === undefined,
        'seller.legal_registration',
        "is required: the seller's trade licence number (ibr-150-ae)",
      ),
  ),
  // This service writes either party's legal registration as a trade licence (TL, pintDocument.ts), which
  // names its issuing authority: the seller's under ibr-172-ae, the buyer's under ibr-101-ae.
  ...(['seller', 'buyer'] as const).map((role) => {
    const id = role === 'seller' ? 'ibr-172-ae' : 'ibr-101-ae';
    return rule(id, `the ${role}'s trade licence names its issuing authority: ${role}.legal_registration.issuer`, (c) =>
      when(
        c.invoice[role].legal_registration !== undefined && blank(c.invoice[role].legal_registration?.issuer),
        `${role}.legal_registration.issuer`,
        `is required by PINT AE: the authority that issued the trade licence (${id})`,
      ),
    );
  }),
  rule(
    'ibr-166-ae',
    'reverse charge (AE) lines are not written: PINT AE needs their type of goods or services (BTAE-09) and item standard identifier',
    (c) =>
      when(
        c.categories.has('AE'),
        'line_items',
        'include reverse charge (AE), which this service does not write under PINT AE: such a line needs the type of goods or services (BTAE-09, ibr-166-ae) and the item standard identifier (ibr-174-ae)',
      ),
  ),
  ...(['seller', 'buyer'] as const).map((role) =>
    rule(
      role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae',
      `the ${role}'s street, city and emirate are required`,
      (c) => [
        ...when(
          blank(c.invoice[role].street),
          `${role}.street`,
          `is required by PINT AE (${role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae'})`,
        ),
        ...when(
          blank(c.invoice[role].city),
          `${role}.city`,
          `is required by PINT AE (${role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae'})`,
        ),
        ...when(
          blank(c.invoice[role].country_subdivision),
          `${role}.country_subdivision`,
          `is required by PINT AE: the emirate code such as DXB, AUH, SHJ (${role === 'seller' ? 'ibr-143-ae' : 'ibr-144-ae'})`,
        ),
      ],
    ),
  ),
  rule('ibr-158-ae', 'a UAE credit note names its reason code (BTAE-03): credit_note_reason_code', (c) =>
    when(
      c.invoice.document_type === 'credit_note' && c.invoice.credit_note_reason_code === undefined,
      'credit_note_reason_code',
      'is required on a PINT AE credit note: DL8.61.1.A to DL8.61.1.E (with preceding_invoice) or VD (ibr-158-ae)',
    ),
  ),
  rule('ibr-055-ae', 'a UAE credit note names the invoice it credits (BG-3), except a volume discount (VD)', (c) => {
    const reason = c.invoice.credit_note_reason_code;
    if (c.invoice.document_type !== 'credit_note' || reason === undefined) return [];
    return reason === 'VD'
      ? when(
          !!c.invoice.preceding_invoice,
          'preceding_invoice',
          'must be left out when credit_note_reason_code is VD (ibr-055-ae)',
        )
      : when(
          !c.invoice.preceding_invoice,
          'preceding_invoice',
          `is required when credit_note_reason_code is ${reason} (ibr-055-ae)`,
        );
  }),
  rule('ibr-167-ae', 'exempt lines name their exemption reason code (IBT-186): tax_exemption_code', (c) =>
    when(
      c.categories.has('E') && c.invoice.tax_exemption_code === undefined,
      'tax_exemption_code',
      'is required for exempt (E) lines under PINT AE, e.g. VATEX-AE-EDU (ibr-167-ae)',
    ),
  ),
  rule('ibr-151-ae', 'an invoice has lines other than exempt (E) and out of scope (O)', (c) =>
    when(
      [...c.categories].every((category) => category === 'E' || category === 'O'),
      'line_items',
      'are all exempt (E) or out of scope (O), which a UAE tax invoice or credit note cannot be (ibr-151-ae)',
    ),
  ),
  rule('ibr-147-ae', 'quantity × unit price has at most 2 decimals', (c) =>
    c.invoice.line_items.flatMap((line, at) =>
      when(
        productDecimals(line.quantity, line.unit_price) > currencyDigits(c.invoice.currency),
        `line_items[${at}].quantity`,
        `times unit_price has more than ${currencyDigits(c.invoice.currency)} decimals: PINT AE compares the line amount with the product computed in floating point, so the rounded line amount can disagree (ibr-147-ae)`,
      ),
    ),
  ),
  rule('ibr-103-ae', 'reverse-charge lines need the buyer TRN (BT-48): buyer.tax_registration_number', (c) =>
    when(
      c.categories.has('AE') && blank(c.invoice.buyer.tax_registration_number),
      'buyer.tax_registration_number',
      'is required for reverse-charge (AE) lines (ibr-103-ae)',
    ),
  ),
  rule(
    'ibr-135-ae',
    'a buyer at a predefined endpoint (0235 other than a TIN 1XXXXXXXXX) names its TRN: buyer.tax_registration_number',
    (c) => {
      const address = c.invoice.buyer.electronic_address;
      return when(
        address?.scheme === '0235' && !/^1[0-9]{9}$/.test(address.id) && blank(c.invoice.buyer.tax_registration_number),
        'buyer.tax_registration_number',
        `is required with the predefined electronic address 0235:${address?.id ?? ''}: only an export, which this service does not write, may leave it out (ibr-135-ae)`,
      );
    },
  ),
  rule('ibr-127-ae', 'an amount due needs a due date (BT-9): due_date', (c) =>
    when(
      c.invoice.document_type !== 'credit_note' && c.totals.balanceDue > 0n && c.invoice.due_date === undefined,
      'due_date',
      'is required by PINT AE when an amount is due (ibr-127-ae)',
    ),
  ),
  rule('ibr-154-ae', 'only the plain transaction type 00000000 is written by this service', (c) =>
    when(
      c.invoice.transaction_type !== undefined && c.invoice.transaction_type !== '00000000',
      'transaction_type',
      'must be 00000000: the special UAE transactions (free zone, deemed supply, margin scheme, summary, continuous, agent, e-commerce, exports) need fields this service does not write (ibr-154-ae)',
    ),
  ),
];
