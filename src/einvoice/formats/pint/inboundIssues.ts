import type { Issue } from '../../../errors.js';
import { VAT_CATEGORIES } from '../../../invoice/vatCategories.js';
import { divide, multiply, parseDecimal, roundTo } from '../../inbound/decimalText.js';
import type { InboundInvoice, InLine, InParty } from '../../inbound/model.js';
import { otherValue } from '../../inbound/otherValue.js';
import { jsonLineSources } from '../../inbound/takeIntoLines.js';
import { exemptionCodeOf } from './inboundFields.js';
import { PINT_JURISDICTIONS, statesNoTax, type PintProfile } from './jurisdictions.js';
import { AE_TRN, JP_REGISTRATION_SHAPE } from './taxIdentifiers.js';

/**
 * A received document's findings as the official PINT rules judge it (../shared/einvoice/pint's compiled
 * rules, which check-xml runs), the request's rules on the JSON invoice (rules.ts) without:
 * - this service's own format and check-digit checks of tax numbers (snake_case ids in rules.ts), which
 *   no official rule has;
 * - the findings on what the JSON invoice could not hold as the document states it (DOCUMENT_RULES):
 *   an exemption reason code (BR-E-10, kept only for the UAE), a seller identifier (ibr-co-26), the
 *   type code (ibr-151-ae applies to 380 and 381 only), a deemed supply's flag (ibr-127-ae)…
 */
export const pintInboundIssues =
  (profile: PintProfile) =>
  (document: InboundInvoice, issues: Issue[]): Issue[] => [
    ...issues.filter((issue) => {
      if (OWN_CHECKS.has(issue.code)) return false;
      if (issue.code === PINT_JURISDICTIONS[profile].categoryRule) return !lostCategory(document, issue.path);
      return DOCUMENT_RULES[issue.code]?.(document, issue) ?? true;
    }),
    ...nonTaxInvoiceIssues(document),
    ...unknownCategoryCodes(profile, document),
  ];

/** Rules whose finding on the JSON invoice stands only when the document, as it is, breaks them. */
const DOCUMENT_RULES: Record<string, (document: InboundInvoice, issue: Issue) => boolean> = {
  'BR-E-10': (document) => exemptionCodeOf(document) === undefined,
  'ibr-151-ae': (document) => ['380', '381'].includes(document.typeCode.trim()),
  // The official rules check the shape only; the check digits are this service's own (taxIdentifiers.ts).
  // The official rule reads the seller's number, and only for a period (BG-14, BG-26) from 2023-10-01 on.
  'aligned-ibr-jp-01': (document, issue) =>
    issue.path.startsWith('seller.') &&
    qualifiedInvoicePeriod(document) &&
    !shapeOk(document, issue.path, JP_REGISTRATION_SHAPE),
  'ibr-132-ae': (document, issue) => !shapeOk(document, issue.path, AE_TRN),
  // Japan's invoice of a seller that is not tax-registered has no seller tax identifier (aligned-ibr-jp-04-ntr).
  'aligned-ibr-jp-04': (document) => !statesNoTax(document.customization),
  // The seller's or its tax representative's GST identifier (BT-31, BT-63) where a category of a GST-registered seller is used.
  'BR-105-GST-SG': (document) =>
    [...document.lines, ...document.breakdown].some((item) => SG_GST_REGISTERED_CODES.has(item.category ?? '')) &&
    taxNumberOf(document.seller) === undefined &&
    document.taxRepresentative?.vatId === undefined &&
    document.taxRepresentative?.taxRegistration === undefined,
  // A seller identifier the JSON invoice has no field for (BT-29) or refuses (a placeholder) still identifies the seller.
  'ibr-co-26': ({ seller }) =>
    seller.ids.length === 0 && seller.legalId === undefined && taxNumberOf(seller) === undefined,
  // No due date is needed on a credit note or a deemed supply (ProfileExecutionID's second flag).
  'ibr-127-ae': (document) =>
    document.dueDate === undefined &&
    !['381', '81', '261'].includes(document.typeCode.trim()) &&
    !/^[01]1[01]{6}$/.test(otherValue(document, 'ProfileExecutionID') ?? ''),
  // An export (ProfileExecutionID's last flag) may leave the buyer at a predefined endpoint unidentified.
  'ibr-135-ae': (document) =>
    !/^[01]{7}1$/.test(otherValue(document, 'ProfileExecutionID') ?? '') &&
    document.buyer.ids.length === 0 &&
    taxNumberOf(document.buyer) === undefined,
  'ibr-147-ae': (document) => document.lines.some((line) => !lineAmountAsPintAeComputes(line)),
  // Refusals of what this service writes, not findings on a document: it writes every UAE legal registration as a
  // trade licence (the buyer's document may name another type, BTAE-16), and no reverse-charge line (BTAE-09 unread).
  'ibr-101-ae': () => false,
  'ibr-166-ae': () => false,
};

/** Japan's qualified-invoice system began on 2023-10-01: a period date from then on. */
const qualifiedInvoicePeriod = (document: InboundInvoice) =>
  [
    document.periodStart,
    document.periodEnd,
    ...document.lines.flatMap((line) => [line.periodStart, line.periodEnd]),
  ].some((date) => date !== undefined && date >= '2023-10-01');
const taxNumberOf = (party: InParty) => party.vatId ?? party.taxRegistration;

/** ibr-147-ae's test: the line amount, to 2 decimals, is quantity × price ÷ base quantity with the line's charges less its allowances. */
function lineAmountAsPintAeComputes(line: InLine): boolean {
  const cents = (value: bigint) => roundTo(value, 2);
  const adjustments = line.allowances.reduce(
    (total, item) => total + (item.charge ? 1n : -1n) * (parseDecimal(item.amount) ?? 0n),
    0n,
  );
  const base = parseDecimal(line.baseQuantity);
  const price =
    base === undefined || base === 0n ? (parseDecimal(line.price) ?? 0n) : divide(parseDecimal(line.price) ?? 0n, base);
  return (
    cents(parseDecimal(line.net) ?? 0n) === cents(multiply(parseDecimal(line.quantity) ?? 0n, price) + adjustments)
  );
}

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

const OWN_CHECKS = new Set(['aunz_tax_number', 'sg_gst_registration_number', 'my_tin', 'jp_registration_number']);

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
  const item = jsonLineSources(document)[Number(at)];
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

/**
 * A tax category code outside the jurisdiction's official list (MY "XX"): the JSON invoice would take it
 * as a default category and judge that instead, so the document's own code is checked here, on lines
 * (BT-151, the list rule's id), allowances and charges (BT-95/102) and the breakdown (BT-118; the EU's and
 * Singapore's id for these is CL-17).
 */
function unknownCategoryCodes(profile: PintProfile, document: InboundInvoice): Issue[] {
  const { categoryRule, officialCodes, title } = PINT_JURISDICTIONS[profile];
  const known = (code: string | undefined) => code === undefined || officialCodes.includes(code.trim());
  const finding = (path: string, code: string | undefined, line: boolean) => ({
    path,
    code: line ? categoryRule : categoryRule.replace('CL-18', 'CL-17'),
    message: `is ${code}, which is not a tax category code of ${title} (${officialCodes.join(', ')})`,
  });
  const sources = jsonLineSources(document);
  return [
    ...document.lines.flatMap((line) => {
      const at = sources.indexOf(line);
      return known(line.category)
        ? []
        : [finding(at < 0 ? `lines[${line.id}].tax_category` : `line_items[${at}].tax_category`, line.category, true)];
    }),
    ...document.allowances.flatMap((item, at) =>
      known(item.category) ? [] : [finding(`allowances_charges[${at}].tax_category`, item.category, false)],
    ),
    ...document.breakdown.flatMap((group, at) =>
      known(group.category) ? [] : [finding(`vat_breakdown[${at}].category`, group.category, false)],
    ),
  ];
}
