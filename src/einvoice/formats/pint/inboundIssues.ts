import type { Issue } from '../../../errors.js';
import { VAT_CATEGORIES } from '../../../invoice/vatCategories.js';
import type { InboundInvoice } from '../../inbound/model.js';
import { exemptionCodeOf } from './inboundFields.js';
import { PINT_JURISDICTIONS, statesNoTax, type PintProfile } from './jurisdictions.js';
import { AE_TRN, JP_REGISTRATION_SHAPE } from './taxIdentifiers.js';

/**
 * A received document's findings as the official PINT rules judge it (../shared/einvoice/pint's compiled
 * rules, which check-xml runs):
 * - EN 16931's rules are PINT's only in the EU (PINT-EN16931-aligned-rules); elsewhere the tax category
 *   rules on tax identifiers and exemption reasons (BR-S-02, BR-O-02, BR-E-10…) and BR-CO-25/26 are this
 *   service's own checks of what it issues (rules.ts pintBaseIssues), not the document's;
 * - this service's own format and check-digit checks of tax numbers (snake_case ids in rules.ts), which
 *   no official rule has;
 * - BR-E-10 where the document states an exemption reason code, which the JSON invoice keeps only for the UAE;
 * - ibr-151-ae, which applies to commercial invoices and credit notes (380, 381) only.
 */
export const pintInboundIssues =
  (profile: PintProfile) =>
  (document: InboundInvoice, issues: Issue[]): Issue[] => [
    ...issues.filter((issue) => {
      if (OWN_CHECKS.has(issue.code)) return false;
      if (profile !== 'pint-eu' && EN16931_OUTSIDE_PINT.test(issue.code)) return false;
      if (issue.code === PINT_JURISDICTIONS[profile].categoryRule) return !lostCategory(document, issue.path);
      return DOCUMENT_RULES[issue.code]?.(document, issue) ?? true;
    }),
    ...nonTaxInvoiceIssues(document),
  ];

/** Rules whose finding on the JSON invoice stands only when the document, as it is, breaks them. */
const DOCUMENT_RULES: Record<string, (document: InboundInvoice, issue: Issue) => boolean> = {
  'BR-E-10': (document) => exemptionCodeOf(document) === undefined,
  'ibr-151-ae': (document) => ['380', '381'].includes(document.typeCode.trim()),
  // The official rules check the shape only; the check digits are this service's own (taxIdentifiers.ts).
  'aligned-ibr-jp-01': (document, issue) => !shapeOk(document, issue.path, JP_REGISTRATION_SHAPE),
  'ibr-132-ae': (document, issue) => !shapeOk(document, issue.path, AE_TRN),
  // Japan's invoice of a seller that is not tax-registered has no seller tax identifier (aligned-ibr-jp-04-ntr).
  'aligned-ibr-jp-04': (document) => !statesNoTax(document.customization),
  // The seller's or its tax representative's GST identifier (BT-31, BT-63) where a category of a GST-registered seller is used.
  'BR-105-GST-SG': (document) =>
    [...document.lines, ...document.breakdown].some((item) => SG_GST_REGISTERED_CODES.has(item.category ?? '')) &&
    document.taxRepresentative?.vatId === undefined &&
    document.taxRepresentative?.taxRegistration === undefined,
};

/** The GST category codes of a GST-registered seller (BR-105-GST-SG); NG (not registered) is not one. */
const SG_GST_REGISTERED_CODES = new Set([
  'SR',
  'SRCA-S',
  'SRCA-C',
  'ZR',
  'SRRC',
  'SROVR-RS',
  'SROVR-LVG',
  'SRLVG',
  'NA',
]);

const OWN_CHECKS = new Set(['aunz_tax_number', 'sg_gst_registration_number', 'my_tin']);
const EN16931_OUTSIDE_PINT = /^BR-(?:(?:S|Z|E|AE|O|G|K|IC|IG|IP)-\d+|CO-2[56])$/;

/** A missing number stays a finding; a given one is judged by the official shape. */
function shapeOk(document: InboundInvoice, path: string, shape: RegExp): boolean {
  const role = path.startsWith('buyer.') ? 'buyer' : 'seller';
  const number = (document[role].vatId ?? document[role].taxRegistration)?.replace(/\s+/g, '');
  return number !== undefined && shape.test(number);
}

/**
 * A line whose document category code the JSON invoice cannot hold (Malaysia's LVG, Singapore's NG…):
 * the conversion gave it a default category, which the jurisdiction's code list rule then judges
 * instead of the document's code (check-xml checks that one against the official code list).
 */
function lostCategory(document: InboundInvoice, path: string): boolean {
  const at = /^line_items\[(\d+)\]/.exec(path)?.[1];
  if (at === undefined) return false;
  const charges = document.allowances.filter((item) => item.charge);
  const item = document.lines.length > 0 ? [...document.lines, ...charges][Number(at)] : document.breakdown[Number(at)];
  return item !== undefined && !(VAT_CATEGORIES as readonly string[]).includes(item.category ?? '');
}

/** aligned-ibr-jp-04-ntr: Japan's non-tax-registered invoice names no seller tax identifier. */
function nonTaxInvoiceIssues(document: InboundInvoice): Issue[] {
  const number = document.seller.vatId ?? document.seller.taxRegistration;
  return statesNoTax(document.customization) && number !== undefined
    ? [
        {
          path: 'seller.tax_registration_number',
          code: 'aligned-ibr-jp-04-ntr',
          message: `is ${number}, but an invoice of a seller that is not tax-registered states no seller tax identifier (aligned-ibr-jp-04-ntr)`,
        },
      ]
    : [];
}
