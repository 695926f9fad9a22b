/**
 * An inbound e-invoice as read from CII or UBL (src/einvoice/inbound/) and printed by the renderer
 * (src/render/inboundView.ts); the types live here, below both: the EN 16931 business terms (BT-…) the layout
 * prints, as the document wrote them (amounts are its decimal text, dates ISO YYYY-MM-DD). What
 * the reader does not map lands in `otherValues` with its element path (and BT number where
 * known), so no value of the document is dropped silently.
 */
import type { LabelKey } from './labelKeys.js';

/** The syntax read: the EN 16931 bindings (cii, ubl), or one a format module's reader brings (src/einvoice/formats/). */
type Syntax = 'cii' | 'ubl' | (string & {});

/**
 * Meanings a format's reader gives its own notes (FatturaPA's withholding, stamp duty, net amount to
 * pay, and which body of a file a document is): generic code prints them by meaning, never by the
 * format's element names.
 */
export type InboundNoteMeaning = 'withholding' | 'stamp_duty' | 'net_to_pay' | 'document_number';

/** Meanings a format's reader gives a document-level charge (FatturaPA's pension fund contribution). */
type InboundChargeMeaning = 'pension_fund';

export interface InAddress {
  lines: string[];
  city: string | undefined;
  postalCode: string | undefined;
  subdivision: string | undefined;
  country: string | undefined;
}

export interface InParty {
  name: string;
  /** BT-28/45 trading name. */
  tradingName: string | undefined;
  /** BT-29/46/60 identifiers, "scheme: id" when a scheme is given. */
  ids: string[];
  /** BT-30/47/61 legal registration identifier. */
  legalId: string | undefined;
  /** The authority that issued the legal registration (UBL schemeAgencyName; the UAE's trade licence issuer, BTAE-12). */
  legalIssuer?: string | undefined;
  /** BT-31/48/63 VAT identifier. */
  vatId: string | undefined;
  /** BT-32 tax registration (scheme FC). */
  taxRegistration: string | undefined;
  /** BT-33 additional legal information. */
  legalInfo: string | undefined;
  /** BT-34/49 electronic address, "scheme: id". */
  endpoint: string | undefined;
  address: InAddress | undefined;
  contactName: string | undefined;
  phone: string | undefined;
  email: string | undefined;
}

export interface InAllowanceCharge {
  charge: boolean;
  amount: string;
  base: string | undefined;
  percent: string | undefined;
  reason: string | undefined;
  reasonCode: string | undefined;
  category: string | undefined;
  rate: string | undefined;
  /** Printed under its own label (in the page's language) instead of "Charge (BG-21)". */
  printedAs?: InboundChargeMeaning;
}

export interface InLine {
  id: string;
  note: string | undefined;
  name: string;
  description: string | undefined;
  sellerItemId: string | undefined;
  buyerItemId: string | undefined;
  standardItemId: string | undefined;
  quantity: string;
  unitCode: string | undefined;
  /** BT-131 line net amount. */
  net: string;
  /** BT-146 item net price; undefined where the document states none (ZUGFeRD 1.0 BASIC lines). */
  price: string | undefined;
  /** BT-149 price base quantity. */
  baseQuantity: string | undefined;
  /** The gross price's own base quantity (CII only; EN 16931 has one BT-149). */
  grossBaseQuantity?: string | undefined;
  /** BT-148 gross price and BT-147 price discount. */
  grossPrice: string | undefined;
  priceDiscount: string | undefined;
  category: string | undefined;
  rate: string | undefined;
  allowances: InAllowanceCharge[];
  /** BT-134/135. */
  periodStart: string | undefined;
  periodEnd: string | undefined;
  /** BT-160/161 item attributes and other line facts (order line reference, accounting ref…). */
  facts: { label: string; value: string }[];
}

export interface InBreakdown {
  category: string;
  rate: string | undefined;
  basis: string;
  tax: string;
  exemptionReason: string | undefined;
  exemptionCode: string | undefined;
}

export interface InPaymentMeans {
  code: string | undefined;
  text: string | undefined;
  /** BT-84 account identifier (IBAN or other). */
  account: string | undefined;
  accountName: string | undefined;
  bic: string | undefined;
  /** BT-87 card number (last digits only, as sent). */
  card: string | undefined;
  /** BT-89/91 direct debit mandate and debited account. */
  mandate: string | undefined;
  debitedAccount: string | undefined;
}

export interface InAttachment {
  id: string;
  description: string | undefined;
  filename: string | undefined;
  mimeCode: string | undefined;
  /** Decoded size of an embedded object; its content is never decoded further or shown. */
  bytes: number | undefined;
  /** BT-124 external location, printed as text, never fetched. */
  uri: string | undefined;
}

export interface OtherValue {
  /** BT/BG number where the element is one the reader knows, else null. */
  bt: string | null;
  /** The element path below the document root, local names joined by "/". */
  path: string;
  value: string;
}

export interface InboundInvoice {
  syntax: Syntax;
  /** The root element: CrossIndustryInvoice, Invoice, CreditNote, CrossIndustryDocument (ZUGFeRD 1.0), Faktura (KSeF FA(3)), … */
  document: string;
  /** The syntax as a reader names it: "UN/CEFACT CII", "UBL 2.1 Invoice", "ZUGFeRD 1.0", "KSeF VAT". */
  syntaxLabel: string;
  /** A Peppol SBDH envelope, or a CAdES signature (.p7m, src/cms/), was removed around the document. */
  envelope: 'sbdh' | 'cades' | null;
  /** BT-24 and BT-23. */
  customization: string;
  profile: string | undefined;
  /** BT-3. */
  typeCode: string;
  number: string;
  issueDate: string;
  dueDate: string | undefined;
  /** BT-7 tax point date, BT-8 its code. */
  taxPointDate: string | undefined;
  currency: string;
  /** BT-6 and BT-111 (VAT total in accounting currency). */
  taxCurrency: string | undefined;
  /**
   * BG-1 notes (BT-21 subject code, BT-22 text); `printedAs`: what a format's reader says a note of
   * its own means, so the page prints it under its own label (render/inbound/inboundExtras.ts).
   */
  notes: { subject: string | undefined; text: string; printedAs?: InboundNoteMeaning }[];
  /** BT-10… references by BT number, in the order of the standard. */
  references: { bt: string; value: string }[];
  seller: InParty;
  buyer: InParty;
  payee: InParty | undefined;
  taxRepresentative: InParty | undefined;
  delivery:
    | {
        name: string | undefined;
        locationId: string | undefined;
        address: InAddress | undefined;
        date: string | undefined;
      }
    | undefined;
  /** BG-14 invoicing period. */
  periodStart: string | undefined;
  periodEnd: string | undefined;
  paymentMeans: InPaymentMeans[];
  paymentReference: string | undefined;
  paymentTerms: string | undefined;
  allowances: InAllowanceCharge[];
  breakdown: InBreakdown[];
  totals: {
    lineTotal: string | undefined;
    allowanceTotal: string | undefined;
    chargeTotal: string | undefined;
    taxBasis: string | undefined;
    taxTotal: string | undefined;
    taxTotalAccounting: string | undefined;
    grandTotal: string | undefined;
    prepaid: string | undefined;
    rounding: string | undefined;
    duePayable: string | undefined;
  };
  lines: InLine[];
  attachments: InAttachment[];
  otherValues: OtherValue[];
  /** A syntax of a format's own: the request fields a re-issue under its profile adds to the invoice (FA(3): its `ksef` object). */
  reissueFields?: Record<string, unknown>;
  /**
   * A syntax with arithmetic of its own (FA(3): gross-priced lines, advances, settlements): its totals
   * compared by its reader under its own rules, which its format's reading.totals hook answers
   * (src/einvoice/formats/format.ts) instead of EN 16931's recomputation.
   */
  ownTotals?: TotalsComparison;
  /** Terms whose legal name in the document's own language matters (FA(3): its kind, Adnotacje, rate codes). */
  legalTerms?: LegalTerm[];
  /**
   * Data a format attaches in a structure of its own (FA(3): Zalacznik), printed as laid out there;
   * its values stay in `otherValues` too (inspect answers them), and the page's "Further details"
   * leaves out those under `element`.
   */
  dataBlocks?: { element: string; blocks: InDataBlock[] };
}

/** One block of attached data (FA(3) Zalacznik/BlokDanych): a heading, key-value pairs, paragraphs, tables. */
export interface InDataBlock {
  heading: string | undefined;
  pairs: InDataPair[];
  paragraphs: string[];
  tables: InDataTable[];
}

export interface InDataPair {
  key: string;
  value: string;
}

/** A table of attached data as the document states it: its own key-value pairs, caption, columns, rows and sum row. */
export interface InDataTable {
  pairs: InDataPair[];
  caption: string | undefined;
  /** Each column's name and declared type (FA(3) Kol/@Typ: txt, date, time, int, dec). */
  columns: { name: string; type: string | undefined }[];
  rows: string[][];
  sum: string[] | undefined;
}

/**
 * A term the PDF prints in the page's language (`label`, a catalog key) with the legal name the
 * document's own law gives it beside (in `lang`, Polish for FA(3)) and the element that states it.
 */
export interface LegalTerm {
  label: LabelKey;
  legalName: string;
  lang: string;
  element: string;
}

/** A verification code as the PDF prints it (src/einvoice/formats/format.ts VerificationCodeHook): a QR code of the link, its caption beneath. */
export interface VerificationCode {
  link: string;
  caption: string;
  /** The code's own name, printed in its language whatever the page's (FA(3): "KOD I · weryfikacja w KSeF", pl). */
  name: { text: string; lang: string };
}

/** The document's totals beside the totals its lines give (src/einvoice/inbound/inboundTotals.ts). */
export const TOTAL_KEYS = [
  'line_total',
  'allowance_total',
  'charge_total',
  'tax_basis',
  'tax_total',
  'grand_total',
  'prepaid',
  'rounding',
  'due_payable',
] as const;
export type TotalKey = (typeof TOTAL_KEYS)[number];

export interface TotalsComparison {
  /** Each total as the document states it (null when absent), by business term. */
  document: Record<TotalKey, string | null>;
  /** The same totals recomputed; null where the document lacks what they are computed from. */
  recomputed: Record<TotalKey, string | null>;
  differences: TotalDifference[];
}

export interface TotalDifference {
  /** The total, a line ("lines[2].net") or a VAT group ("vat_breakdown[0].tax"). */
  field: string;
  bt: string;
  /** The EN 16931 rule that ties the value to what it is computed from (line_net: none does). */
  rule: string;
  document: string;
  recomputed: string;
  difference: string;
}
