import type { InboundInvoice, InParty } from './model.js';
import type { Reader } from './reader.js';
import type { XNode } from '../../xml/xmlTree.js';

/**
 * A syntax binding of EN 16931 (EN 16931-3-2 UBL, -3-3 CII) as data: where each business term
 * (BT-…) and group (BG-…) sits in the syntax, for the one generic reader (readSyntax.ts) to walk.
 * Tables: ciiTable.ts (CII D16B, and ZUGFeRD 1.0 as a binding of it with older element names,
 * src/einvoice/formats/zugferd1/binding.ts) and ublTable.ts (UBL 2.1 Invoice and CreditNote).
 *
 * A term is a `Path` (element names below its group's node, written 'A/B/C' and split once when
 * the table is built) or, where the syntax writes it in pieces (a party's name in UBL, a CII
 * identifier list), a `Derive`: a function of the group's node that reads it with the Reader, so
 * that what it reads is marked read and what it leaves is still shown as an other value.
 */
export type Path = readonly string[];
type Derive<T = string | undefined> = (r: Reader, node: XNode | undefined, root: XNode) => T;
export type Term<T = string | undefined> = Path | Derive<T>;

/** 'A/B/C' into a Path; '' is the node itself. */
export const p = (text: string): Path => (text === '' ? [] : text.split('/'));

/** A VAT category (BT-95/102/118/151) and rate below a tax element: `scheme` must say VAT. */
export interface TaxTerms {
  scheme: Path;
  category: Path;
  rate: Path;
}

/** BG-20/21 (document) and BG-27/28 (line) allowances and charges. */
export interface AllowanceTerms {
  each: Path;
  /** ChargeIndicator's path ('true' is a charge), or true for a list of charges only. */
  charge: Path | true;
  amount: Path;
  base?: Path;
  percent?: Path;
  reason: Path;
  reasonCode?: Path;
  /** The tax element below the allowance (its category and rate: `tax` of the table). */
  tax: Path;
  /**
   * The amount is a share of its basis and takes the basis's sign whatever sign it is written
   * with (ZUGFeRD 1.0 producers wrote either; the document's own totals follow the basis).
   */
  amountSignOfBase?: true;
}

/** A value with its identification scheme as an attribute: "scheme: id". */
interface Schemed {
  path: Path;
  scheme: string;
}

type PartyKey = keyof InParty;
type PartyTerm = Exclude<
  PartyKey,
  'address' | 'ids' | 'vatId' | 'taxRegistration' | 'legalId' | 'legalIssuer' | 'endpoint'
>;

export interface SyntaxTable {
  syntax: InboundInvoice['syntax'];
  /** The root element read (InboundInvoice.document) and the syntax's name for people. */
  document: string;
  label: string;
  /** A binding's element names for the names the table is written in (ZUGFeRD 1.0's), if any. */
  names?: Readonly<Record<string, string>>;
  /** How the syntax writes a date (CII: format 102, YYYYMMDD), into ISO YYYY-MM-DD. */
  date: (text: string | undefined) => string | undefined;
  /** BT numbers of the elements left to other values, by their path. */
  otherValueBt: (path: string) => string | null;
  tax: TaxTerms;
  header: {
    currency: Path; // BT-5
    customization: Path; // BT-24
    profile: Path; // BT-23
    typeCode: Path; // BT-3
    number: Path; // BT-1
    issueDate: Path; // BT-2 (a date)
    taxPointDate?: Path; // BT-7 (a date); absent: the first VAT breakdown's (breakdown.taxPoint)
    taxCurrency: Path; // BT-6
    dueDate: Derive; // BT-9
    paymentReference: Term; // BT-83
    periodStart: Path; // BG-14 BT-73 (a date)
    periodEnd: Path; // BT-74 (a date)
  };
  /** BG-1 notes: each node, read into a subject code (BT-21) and text (BT-22). */
  notes: { each: Path; read: Derive<{ subject: string | undefined; text: string }> };
  /** BT-20 payment terms: each node's text, joined by newlines. */
  paymentTerms: { each: Path; text: Path };
  /** References by BT number, in the order of the standard. */
  references: readonly (readonly [bt: string, term: Path])[];
  /** BG-3 preceding invoices: BT-25 with its BT-26 date. */
  preceding: { each: Path; number: Path; date: Path };
  /** BG-24 additional documents, some of which are references by their type code (BT-17, BT-18). */
  documents: {
    each: Path;
    typeCode: Path;
    id: Path;
    /** A type code that makes the document a reference: its BT, and whether its id has a scheme. */
    asReference: Readonly<Record<string, { bt: string; schemed: boolean }>>;
    description: Path;
    binary: Path;
    uri: Path;
  };
  parties: { seller: Path; buyer: Path; payee: Path; taxRepresentative: Path };
  /** BG-4/7/10/11 below a party's node. */
  party: Record<PartyTerm, Term> & {
    ids: Derive<string[]>;
    legalId: Schemed;
    /** The legal registration's issuing authority, where the syntax has one. */
    legalIssuer?: Term;
    endpoint: Schemed;
    /** BT-31/32: the tax registrations; the one whose kind is `vat` is the VAT identifier. */
    registrations: { each: Path; kind: Term; id: Path; vat: string };
    address: Path;
  };
  /** BG-5/8/12/15 below an address node: the address lines in order, then the rest. */
  address: { lines: readonly Path[]; city: Path; postalCode: Path; subdivision: Path; country: Path };
  /** BG-13: present when its party node or its date is. */
  delivery: { at: Path; party: Path; name: Path; locationId: Derive; address: Path; date: Path };
  /** BG-16 payment instructions, each below its node. */
  paymentMeans: {
    each: Path;
    code: Term;
    text: Term;
    account: Term;
    accountName: Path;
    bic: Path;
    /** BG-18 card: these parts joined by ", ". */
    card: readonly Path[];
    mandate: Term;
    debitedAccount: Path;
  };
  allowances: readonly AllowanceTerms[];
  /** BT-110/111 and the node whose `breakdown.each` are the VAT breakdown groups (BG-23). */
  taxTotals: Derive<{ taxTotal: string | undefined; accounting: string | undefined; breakdownFrom: XNode | undefined }>;
  breakdown: {
    each: Path;
    /** The tax element (category, rate, exemption) below a group; [] for the group itself. */
    tax: Path;
    basis: Path;
    amount: Path;
    exemptionReason: Path;
    exemptionCode: Path;
    taxPoint?: Path; // BT-7 (a date) where the syntax writes it per group
    dueDateCode?: Path; // BT-8 likewise
  };
  totals: { at: Path } & Record<Exclude<keyof InboundInvoice['totals'], 'taxTotal' | 'taxTotalAccounting'>, Path>;
  line: LineTerms;
}

/** BG-25 invoice lines, every term below the line's node. */
export interface LineTerms {
  each: Path;
  id: Path;
  note: Path;
  name: Path;
  description: Path;
  sellerItemId: Path;
  buyerItemId: Path;
  standardItemId: Schemed;
  quantity: Path;
  net: Path;
  price: Path;
  baseQuantity: Path;
  /** BT-148 gross price and BT-147 discount. */
  gross: Derive<{ grossPrice: string | undefined; priceDiscount: string | undefined }>;
  /** The gross price's own base quantity, where the syntax has one (CII; EN 16931 has one BT-149). */
  grossBaseQuantity?: Path;
  tax: Path;
  allowances: AllowanceTerms;
  periodStart: Path;
  periodEnd: Path;
  /** BT-160/161 attributes, then BT-158 classifications, then single facts, then BT-128 objects. */
  attributes: { each: Path; label: Path; value: Path };
  classifications: { each: Path; code: Schemed };
  facts: readonly (readonly [bt: string, term: Path])[];
  /** BT-128 object identifiers where the syntax repeats them (UBL); CII has one, among `facts`. */
  objects?: { each: Path; id: Schemed; expect: readonly [value: string, path: Path] };
}
