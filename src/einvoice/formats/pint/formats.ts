import type { InboundInvoice } from '../../inbound/model.js';
import { defineFormat } from '../format.js';
import { PINT_EXAMPLE_REQUESTS } from './examples.js';
import { PINT_BUSINESS_PROCESS, PINT_JURISDICTIONS, type PintProfile } from './jurisdictions.js';
import { pintInboundFields } from './inboundFields.js';
import { pintInboundIssues } from './inboundIssues.js';
import { pintInboundTotals } from './inboundTotals.js';
import { asCreditNote } from './negatedInvoice.js';
import { adaptPint } from './pintDocument.js';
import { PINT_RULES, pintBaseIssues } from './rules.js';

/**
 * The six Peppol PINT profiles as format modules of the registry (src/einvoice/formats/registry.ts):
 * UBL only, business process urn:peppol:bis:billing, the jurisdiction's rules and document
 * adaptation; a received document is recognised by its BT-24 (billing, self-billing, and Japan's
 * non-tax-registered invoice, `urn:peppol:pint:nontaxinvoice-1@jp-1`).
 */
const SHARED_FIELDS = [
  'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; a Peppol EAS scheme, not EM)',
  'buyer.country',
  'tax_currency { code, exchange_rate } where the jurisdiction states tax in its own currency (BT-6, BT-111)',
];

const JURISDICTION_FIELDS: Record<PintProfile, readonly string[]> = {
  'pint-eu': ['buyer_reference or purchase_order (BT-10 or BT-13)', 'seller.vat_id as in EN 16931', 'at most one note'],
  'pint-aunz': [
    'buyer_reference or purchase_order (BT-10 or BT-13)',
    'seller.tax_registration_number: the ABN (AU, check digits) or GST number (NZ, IRD check digit) of a GST-registered seller',
    'legal_registration { scheme: "0151", id: ABN } for an Australian seller or buyer, { scheme: "0088", id: NZBN } for a New Zealand one',
    'tax categories S, Z, E, G, O (GST 10 % in AU, 15 % in NZ)',
  ],
  'pint-sg': [
    'buyer_reference or purchase_order (BT-10 or BT-13)',
    'seller.tax_registration_number: the GST registration number (UEN or M-series); seller.legal_registration { scheme: "0195", id: UEN }',
    'tax categories S (written SR), Z (ZR), E (ESN33; tax_code ES33), O (OS); GST 9 %',
    'a foreign-currency invoice names tax_currency { code: "SGD", exchange_rate } (IRAS: GST and totals in SGD)',
  ],
  'pint-jp': [
    'seller.tax_registration_number: the qualified-invoice registration number T + 13 digits (check digit)',
    'invoicing_period (BG-14, the transaction period or day)',
    'tax categories S (10 %; 8 % is written AA, the reduced rate), E, G, O; JPY amounts are whole yen; a credit note is written as an invoice (type 380, the only PINT JP type) with negative quantities and amounts',
    'a foreign-currency invoice names tax_currency { code: "JPY", exchange_rate }',
  ],
  'pint-my': [
    'seller.tax_id: the TIN (BT-32); seller.legal_registration and buyer.legal_registration: the BRN (BT-30, BT-47)',
    'tax categories S as SA (sales tax) or with tax_code SE (service tax), E, O',
    'tax_currency, if given, is MYR',
  ],
  'pint-ae': [
    'seller.tax_registration_number (and buyer.tax_registration_number for reverse charge): the TRN, 15 digits 1…03',
    'seller.legal_registration { id, issuer }: the trade licence and its issuing authority',
    'street, city and country_subdivision (the emirate: DXB, AUH, SHJ, …) of seller and buyer',
    'due_date when an amount is due; tax_exemption_code (e.g. VATEX-AE-EDU) for exempt lines; lines whose quantity × unit price has at most 2 decimals',
    'tax categories S (5 %), Z, E, O, AE; a foreign-currency invoice names tax_currency { code: "AED", exchange_rate }',
    'a credit note names credit_note_reason_code (BTAE-03: DL8.61.1.A to E with preceding_invoice, or VD without)',
  ],
};

const MARKETS: Record<PintProfile, string> = {
  'pint-eu': 'Peppol PINT for EU sellers (the international model aligned with EN 16931)',
  'pint-aunz': 'Australia and New Zealand (government buyers, B2B)',
  'pint-sg': "Singapore's InvoiceNow, with IRAS's GST rules",
  'pint-jp': "Japan's qualified invoice (JP PINT)",
  'pint-my': 'Malaysia (PINT MY beside MyInvois)',
  'pint-ae': "the UAE's e-invoicing mandate (PINT AE)",
};

/** The BT-24 of the jurisdiction's billing, self-billing and (Japan) non-tax-registered documents. */
const recogniser = (profile: PintProfile) => {
  const suffix = PINT_JURISDICTIONS[profile].specification.split('@')[1]!;
  const pattern = new RegExp(
    `^urn:peppol:pint:(?:billing|selfbilling|nontaxinvoice)-1@${suffix.replace(/[-]/g, '\\-')}`,
  );
  return (document: InboundInvoice) => pattern.test(document.customization.trim());
};

/** The kinds of document a PINT jurisdiction defines beside billing, named in BT-24. */
const DOCUMENT_KINDS: readonly (readonly [RegExp, string])[] = [
  [/^urn:peppol:pint:selfbilling-1@/, 'self-billing'],
  [/^urn:peppol:pint:nontaxinvoice-1@/, 'non-tax-registered invoice'],
];
const documentKind = (document: InboundInvoice) =>
  DOCUMENT_KINDS.find(([pattern]) => pattern.test(document.customization.trim()))?.[1];

const pintFormat = <const Id extends PintProfile>(id: Id) => {
  const jurisdiction = PINT_JURISDICTIONS[id];
  return defineFormat({
    id,
    title: jurisdiction.title,
    blurb: `${jurisdiction.title}, UBL only`,
    writes: ['ubl'],
    specification: jurisdiction.specification,
    defaultBusinessProcess: PINT_BUSINESS_PROCESS,
    ruleSets: [jurisdiction.ruleSet],
    requiredFields: [...SHARED_FIELDS, ...JURISDICTION_FIELDS[id]],
    adapt: adaptPint(id),
    checks: { ...(id === 'pint-eu' ? {} : { base: pintBaseIssues(id) }), rules: PINT_RULES[id] },
    reading: {
      recognises: recogniser(id),
      kind: documentKind,
      totals: pintInboundTotals(id),
      fields: pintInboundFields(id),
      ...(id === 'pint-jp' ? { reissuedAs: asCreditNote } : {}),
      issues: pintInboundIssues(id),
    },
    docs: {
      whatYouGet: MARKETS[id],
      formats:
        id === 'pint-jp'
          ? 'UBL Invoice (a credit note as an invoice with negative amounts)'
          : 'UBL Invoice and CreditNote',
      businessProcess: '`urn:peppol:bis:billing`',
    },
    example: PINT_EXAMPLE_REQUESTS[id] as (typeof PINT_EXAMPLE_REQUESTS)[Id],
  });
};

export const pintEu = pintFormat('pint-eu');
export const pintAunz = pintFormat('pint-aunz');
export const pintSg = pintFormat('pint-sg');
export const pintJp = pintFormat('pint-jp');
export const pintMy = pintFormat('pint-my');
export const pintAe = pintFormat('pint-ae');
