import type { Issue } from '../errors.js';
import { COUNTRY_CODES } from '../invoice/countries.js';
import type { Invoice } from '../invoice/schema.js';
import type { Totals } from '../invoice/totals.js';
import type { VatCategory } from '../invoice/vatCategories.js';
import { isUnitCode } from './unitCodes.js';

/**
 * The EN 16931 business rules that a schema-valid invoice of this service can still break, checked
 * on the request so that each issue names the request field (path) and the CEN rule id (code).
 * Everything else EN 16931 asks for (totals BR-CO-10…16, VAT breakdown BR-S-08/09 and the like,
 * element presence BR-01…BR-26, decimals BR-DEC) holds by construction of document.ts from the
 * Totals; the corpus tests prove it with the official schematron.
 */
export interface RuleContext {
  invoice: Invoice;
  totals: Totals;
  categories: ReadonlySet<VatCategory>;
}

export interface Rule {
  id: string;
  /** What the rule asks, in one line: the message of a category rule's issues (the others word their own). */
  summary: string;
  check(context: RuleContext): Omit<Issue, 'code'>[];
}

/** VAT identifiers start with an ISO 3166-1 code, or EL (Greece) / XI (Northern Ireland). */
const VAT_PREFIXES = new Set([...COUNTRY_CODES, 'EL', 'XI']);

const sellerVat = (c: RuleContext) => c.invoice.seller.vat_id !== undefined;
const sellerVatOrTax = (c: RuleContext) => sellerVat(c) || (c.invoice.seller.tax_id ?? '').trim() !== '';
const buyerVat = (c: RuleContext) => c.invoice.buyer.vat_id !== undefined;

function categoryRule(
  id: string,
  category: VatCategory,
  summary: string,
  ok: (c: RuleContext) => boolean,
  path: (c: RuleContext) => string[],
): Rule {
  return {
    id,
    summary,
    check: (c) => (c.categories.has(category) && !ok(c) ? path(c).map((at) => ({ path: at, message: summary })) : []),
  };
}

const sellerAndBuyerVat = (c: RuleContext) => [
  ...(sellerVat(c) ? [] : ['seller.vat_id']),
  ...(buyerVat(c) ? [] : ['buyer.vat_id']),
];

export const EN16931_RULES: readonly Rule[] = [
  {
    id: 'BR-09',
    summary: "The seller's postal address needs its country code (BT-40): seller.country.",
    check: ({ invoice }) =>
      invoice.seller.country
        ? []
        : [{ path: 'seller.country', message: "is required: EN 16931 needs the seller's country code (BT-40)" }],
  },
  {
    id: 'BR-11',
    summary: "The buyer's postal address needs its country code (BT-55): buyer.country.",
    check: ({ invoice }) =>
      invoice.buyer.country
        ? []
        : [{ path: 'buyer.country', message: "is required: EN 16931 needs the buyer's country code (BT-55)" }],
  },
  {
    id: 'BR-57',
    summary: 'A deliver-to address needs its country code (BT-80): ship_to.country when ship_to is given.',
    check: ({ invoice }) =>
      invoice.ship_to && !invoice.ship_to.country
        ? [
            {
              path: 'ship_to.country',
              message: 'is required when ship_to is given: EN 16931 needs the deliver-to country code (BT-80)',
            },
          ]
        : [],
  },
  {
    id: 'BR-CO-26',
    summary: 'The seller must be identifiable: seller.vat_id (BT-31) or seller.legal_registration (BT-30) is required.',
    check: (c) =>
      sellerVat(c) || c.invoice.seller.legal_registration !== undefined
        ? []
        : [
            {
              path: 'seller.vat_id',
              message:
                "is required (or seller.legal_registration): EN 16931 needs a seller identifier, the seller's VAT identifier (BT-31) or legal registration (BT-30)",
            },
          ],
  },
  {
    id: 'BR-CO-09',
    summary:
      'A VAT identifier starts with an ISO 3166-1 alpha-2 country code (EL for Greece, XI for Northern Ireland).',
    check: ({ invoice }) =>
      (['seller', 'buyer'] as const)
        .filter((role) => invoice[role].vat_id !== undefined && !VAT_PREFIXES.has(invoice[role].vat_id!.slice(0, 2)))
        .map((role) => ({
          path: `${role}.vat_id`,
          message: `must start with a country code (ISO 3166-1 alpha-2, EL for Greece); "${invoice[role].vat_id!.slice(0, 2)}" is none`,
        })),
  },
  {
    id: 'BR-CL-23',
    summary: 'Unit codes come from UN/ECE Recommendation 20 (with Rec 21 packaging codes).',
    check: ({ invoice }) =>
      invoice.line_items.flatMap((line, at) =>
        line.unit !== undefined && !isUnitCode(line.unit)
          ? [
              {
                path: `line_items[${at}].unit`,
                message: `"${line.unit}" is not a UN/ECE Recommendation 20 or 21 unit code (e.g. HUR, DAY, C62, KGM)`,
              },
            ]
          : [],
      ),
  },
  {
    id: 'BR-CO-25',
    summary:
      'An amount due above 0 needs a due date (BT-9) or payment terms (BT-20): due_date or payment_instructions.',
    check: ({ invoice, totals }) =>
      totals.balanceDue > 0n && invoice.due_date === undefined && (invoice.payment_instructions ?? '').trim() === ''
        ? [
            {
              path: 'due_date',
              message:
                'is required when an amount is due and there are no payment_instructions (EN 16931 BT-9 or BT-20)',
            },
          ]
        : [],
  },
  categoryRule(
    'BR-S-02',
    'S',
    "Lines in category S (standard rate) need the seller's VAT identifier or tax registration: seller.vat_id or seller.tax_id.",
    sellerVatOrTax,
    () => ['seller.vat_id'],
  ),
  categoryRule(
    'BR-Z-02',
    'Z',
    "Lines in category Z (zero rated) need the seller's VAT identifier or tax registration: seller.vat_id or seller.tax_id.",
    sellerVatOrTax,
    () => ['seller.vat_id'],
  ),
  categoryRule(
    'BR-E-02',
    'E',
    "Lines in category E (exempt) need the seller's VAT identifier or tax registration: seller.vat_id or seller.tax_id.",
    sellerVatOrTax,
    () => ['seller.vat_id'],
  ),
  categoryRule(
    'BR-E-10',
    'E',
    'Lines in category E (exempt) need the legal reason of the exemption: tax_exemption_reason.',
    (c) => (c.invoice.tax_exemption_reason ?? '').trim() !== '',
    () => ['tax_exemption_reason'],
  ),
  categoryRule(
    'BR-AE-02',
    'AE',
    "Lines in category AE (reverse charge) need the seller's VAT identifier (or tax registration) and the buyer's VAT identifier: seller.vat_id, buyer.vat_id.",
    (c) => sellerVatOrTax(c) && buyerVat(c),
    (c) => [...(sellerVatOrTax(c) ? [] : ['seller.vat_id']), ...(buyerVat(c) ? [] : ['buyer.vat_id'])],
  ),
  categoryRule(
    'BR-IC-02',
    'K',
    "Lines in category K (intra-EU supply) need the seller's and the buyer's VAT identifiers: seller.vat_id, buyer.vat_id.",
    (c) => sellerVat(c) && buyerVat(c),
    sellerAndBuyerVat,
  ),
  categoryRule(
    'BR-G-02',
    'G',
    "Lines in category G (export) need the seller's VAT identifier: seller.vat_id.",
    sellerVat,
    () => ['seller.vat_id'],
  ),
  categoryRule(
    'BR-O-02',
    'O',
    'Lines in category O (not subject to VAT) exclude VAT identifiers: no seller.vat_id or buyer.vat_id (the seller is then identified by seller.legal_registration, BR-CO-26).',
    (c) => !sellerVat(c) && !buyerVat(c),
    (c) => [...(sellerVat(c) ? ['seller.vat_id'] : []), ...(buyerVat(c) ? ['buyer.vat_id'] : [])],
  ),
  {
    id: 'BR-O-11',
    summary: 'An invoice with lines in category O (not subject to VAT) has no lines in other categories.',
    check: ({ categories, totals }) =>
      categories.has('O') && categories.size > 1
        ? totals.lineTax.flatMap((tax, at) =>
            tax.category !== 'O'
              ? [
                  {
                    path: `line_items[${at}].tax_category`,
                    message: `is ${tax.category}, but an invoice with category O lines may have no other VAT category`,
                  },
                ]
              : [],
          )
        : [],
  },
];

/** Every EN 16931 rule the invoice breaks, each issue with its rule id as code. */
export function checkEn16931(invoice: Invoice, totals: Totals): Issue[] {
  const context: RuleContext = { invoice, totals, categories: new Set(totals.groups.map((group) => group.category)) };
  return EN16931_RULES.flatMap((rule) =>
    rule.check(context).map((issue) => ({ path: issue.path, code: rule.id, message: issue.message })),
  );
}

/**
 * The invoice model's own category/rate check (category_rate_mismatch) under the rule ids of
 * EN 16931: BR-S-05 (S needs a rate above 0), BR-Z-05, BR-E-05, BR-AE-05, BR-IC-05 (K), BR-G-05,
 * BR-O-05 (the others need 0).
 */
export function categoryRateRule(category: VatCategory): string {
  return `BR-${category === 'K' ? 'IC' : category}-05`;
}
