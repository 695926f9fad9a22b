import type { Rule, RuleContext } from '../../rules.js';
import { decimalFromNumber } from '../../../invoice/decimal.js';
import { germanRules } from '../germanRules.js';
import { blank, electronicAddress, isCreditNote, partyField, required, rule } from '../ruleHelpers.js';

/** OpenPEPPOL BIS Billing 3.0.21: PEPPOL-EN16931-*, PEPPOL-COMMON-*, and the DE-R-* and NL-R-* sections. */
/** |line amount − quantity × price| ≤ 0.02, exactly (bigint decimals). */
function lineNetWithin(quantity: number, price: number, lineMinor: bigint, digits: number): boolean {
  const q = decimalFromNumber(quantity);
  const p = decimalFromNumber(price);
  const scale = BigInt(q.scale + p.scale);
  const difference = lineMinor * 10n ** scale - q.coefficient * p.coefficient * 10n ** BigInt(digits);
  return (difference < 0n ? -difference : difference) * 100n <= 2n * 10n ** (scale + BigInt(digits));
}

/** The business processes PEPPOL-EN16931-R007 approves (Peppol BIS 3.0.21's `profile` parameter: 01, France's two, 02). */
const PEPPOL_BUSINESS_PROCESSES = [
  'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  'urn:peppol:france:billing:regulated',
  'urn:peppol:france:billing:non-regulated',
  'urn:peppol:bis:billing_with_response',
];

const both = (c: RuleContext, country: string) =>
  c.invoice.seller.country === country && c.invoice.buyer.country === country;
const sellerIn = (c: RuleContext, country: string) => c.invoice.seller.country === country;
const DUTCH_REGISTRATIONS = new Set(['0106', '0190']);

/** Peppol's national sections this service does not implement: refused rather than sold unchecked. */
const UNCHECKED_SECTIONS: Record<string, string> = {
  DK: 'DK-R',
  GR: 'GR-R',
  IS: 'IS-R',
  IT: 'IT-R',
  NO: 'NO-R',
  SE: 'SE-R',
};

export const PEPPOL_RULES: readonly Rule[] = [
  electronicAddress('PEPPOL-EN16931-R020', 'seller', 'BT-34'),
  electronicAddress('PEPPOL-EN16931-R010', 'buyer', 'BT-49'),
  rule(
    'PEPPOL-EN16931-CL008',
    'electronic addresses use a scheme of the Peppol EAS list, which has no EM (e-mail)',
    (c) =>
      (['seller', 'buyer'] as const).flatMap((role) =>
        c.invoice[role].electronic_address?.scheme === 'EM'
          ? [
              {
                path: `${role}.electronic_address.scheme`,
                message:
                  'is EM (e-mail), which the Peppol network does not use: give the Peppol participant identifier, e.g. 0208 (Belgian KBO), 0088 (GLN), 9930 (German VAT)',
              },
            ]
          : [],
      ),
  ),
  rule(
    'PEPPOL-EN16931-R120',
    'a line net amount (BT-131) is quantity × unit price within 0.02: a currency without cents (JPY) needs whole-number quantity × price',
    (c) =>
      c.invoice.line_items.flatMap((line, at) =>
        lineNetWithin(line.quantity, line.unit_price, c.totals.lineAmounts[at] ?? 0n, c.totals.digits)
          ? []
          : [
              {
                path: `line_items[${at}].quantity`,
                message: `times unit_price rounds to a line amount more than 0.02 ${c.invoice.currency} away from the exact product, which Peppol refuses: use a quantity and price whose product has at most ${c.totals.digits} decimals`,
              },
            ],
      ),
  ),
  rule(
    'PEPPOL-EN16931-R003',
    'a buyer reference (BT-10) or purchase order reference (BT-13) is required: buyer_reference or purchase_order',
    (c) =>
      blank(c.invoice.buyer_reference) && blank(c.invoice.purchase_order)
        ? [
            {
              path: 'buyer_reference',
              message:
                'is required when there is no purchase_order: Peppol needs a buyer reference (BT-10) or an order reference (BT-13)',
            },
          ]
        : [],
  ),
  rule(
    'PEPPOL-EN16931-R007',
    `the business process (BT-23) must be an approved Peppol billing process: ${PEPPOL_BUSINESS_PROCESSES.join(', ')}`,
    (c) =>
      c.invoice.business_process !== undefined && !PEPPOL_BUSINESS_PROCESSES.includes(c.invoice.business_process)
        ? [
            {
              path: 'business_process',
              message: `must be an approved Peppol billing process, ${PEPPOL_BUSINESS_PROCESSES.join(', ')} (or be left out)`,
            },
          ]
        : [],
  ),
  rule(
    'PEPPOL-EN16931-R002',
    'at most one invoice note unless seller and buyer are German: notes and legal_notes together',
    (c) =>
      !both(c, 'DE') && c.invoice.legal_notes !== undefined
        ? [
            {
              path: 'legal_notes',
              message:
                'writes three invoice notes, and Peppol allows one unless seller and buyer are German: leave legal_notes out',
            },
          ]
        : [],
  ),
  ...germanRules(
    (n) => `DE-R-${String(n).padStart(3, '0')}`,
    (c) => both(c, 'DE'),
  ),
  required(
    'NL-R-001',
    "a Dutch seller's credit note names the invoice it credits: preceding_invoice",
    'preceding_invoice',
    (invoice) => invoice.preceding_invoice,
    (c) => sellerIn(c, 'NL') && isCreditNote(c),
  ),
  required(
    'NL-R-002',
    "a Dutch seller's address has street, city and post code: seller.street",
    'seller.street',
    partyField('seller', 'street'),
    (c) => sellerIn(c, 'NL'),
  ),
  required(
    'NL-R-002',
    "a Dutch seller's address has street, city and post code: seller.city",
    'seller.city',
    partyField('seller', 'city'),
    (c) => sellerIn(c, 'NL'),
  ),
  required(
    'NL-R-002',
    "a Dutch seller's address has street, city and post code: seller.postal_code",
    'seller.postal_code',
    partyField('seller', 'postal_code'),
    (c) => sellerIn(c, 'NL'),
  ),
  rule(
    'NL-R-003',
    "a Dutch seller's legal registration is a KvK (0106) or OIN (0190) number: seller.legal_registration",
    (c) =>
      sellerIn(c, 'NL') && !DUTCH_REGISTRATIONS.has(c.invoice.seller.legal_registration?.scheme ?? '')
        ? [
            {
              path: 'seller.legal_registration',
              message: 'is required for a Dutch seller, with scheme 0106 (KvK) or 0190 (OIN)',
            },
          ]
        : [],
  ),
  required(
    'NL-R-004',
    "a Dutch buyer's address has street, city and post code: buyer.street",
    'buyer.street',
    partyField('buyer', 'street'),
    (c) => both(c, 'NL'),
  ),
  required(
    'NL-R-004',
    "a Dutch buyer's address has street, city and post code: buyer.city",
    'buyer.city',
    partyField('buyer', 'city'),
    (c) => both(c, 'NL'),
  ),
  required(
    'NL-R-004',
    "a Dutch buyer's address has street, city and post code: buyer.postal_code",
    'buyer.postal_code',
    partyField('buyer', 'postal_code'),
    (c) => both(c, 'NL'),
  ),
  rule(
    'NL-R-005',
    'a Dutch buyer of a Dutch seller has a KvK (0106) or OIN (0190) legal registration: buyer.legal_registration',
    (c) =>
      both(c, 'NL') && !DUTCH_REGISTRATIONS.has(c.invoice.buyer.legal_registration?.scheme ?? '')
        ? [
            {
              path: 'buyer.legal_registration',
              message: 'is required for a Dutch buyer of a Dutch seller, with scheme 0106 (KvK) or 0190 (OIN)',
            },
          ]
        : [],
  ),
  required(
    'NL-R-007',
    "a Dutch seller's invoice has payment means: payment.iban",
    'payment.iban',
    (invoice) => invoice.payment?.iban,
    (c) => sellerIn(c, 'NL') && !isCreditNote(c),
  ),
  rule(
    'PEPPOL-national',
    "Peppol's national rules for sellers in Denmark, Greece, Iceland, Italy, Norway and Sweden are not checked by this service, so it does not issue them",
    (c) => {
      const section = UNCHECKED_SECTIONS[c.invoice.seller.country ?? ''];
      return section
        ? [
            {
              path: 'seller.country',
              message: `is ${c.invoice.seller.country}: Peppol's ${section}-* rules for that country are not checked by this service, so it does not issue such Peppol invoices (use profile en16931)`,
            },
          ]
        : [];
    },
  ),
];
