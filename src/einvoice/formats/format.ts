import type * as v from 'valibot';
import type { Issue } from '../../errors.js';
import type { PreparedInvoice } from '../../invoice/prepareInvoice.js';
import type { EInvoiceDocument } from '../document.js';
import type { InvoiceInput } from '../../invoice/schema.js';
import type { XNode } from '../../xml/xmlTree.js';
import type { InboundTotalsRules } from '../inbound/inboundTotals.js';
import type { InboundInvoice } from '../inbound/model.js';
import type { VerificationCode } from '../../invoice/inboundInvoice.js';
import type { Rule } from '../rules.js';

/**
 * One e-invoice format or profile, declared in one place (src/einvoice/formats/<id>/format.ts) and
 * listed by the registry (registry.ts): what it writes, how a received document is recognised as
 * it, the request fields it needs, its own rule checks with the official rule-set versions they
 * follow, and its line of docs. The profile enums, /v1/schema's profile list, the OpenAPI
 * examples, the MCP tool descriptions, inspect's detection and the table of
 * docs/e-invoices-national.md are derived from the registry; docs/architecture.md shows how to add one.
 */
export interface FormatModule<Id extends string = string, Syntax extends string = string> {
  /** The request's `profile` value; also the folder name. */
  id: Id;
  title: string;
  /** One line for the `profile` field's description and llms.txt, e.g. "XRechnung 3.0, CII, UBL or Factur-X". */
  blurb: string;
  /** The syntaxes this profile is written in: the EN 16931 bindings (cii, ubl, factur-x) or its own. */
  writes: readonly Syntax[];
  /** BT-24 as written; the identifier a received document is first recognised by. */
  specification: string;
  /** BT-23 when the request names none. */
  defaultBusinessProcess?: string;
  /** Factur-X / ZUGFeRD hybrid: the embedded file's name and the XMP fx:ConformanceLevel. */
  hybrid?: { fileName: string; conformanceLevel: 'EN 16931' | 'XRECHNUNG' };
  /** The official rule sets `rules` implement, with the versions they follow. */
  ruleSets: readonly string[];
  /** The request fields the profile requires beyond EN 16931 (what `rules` ask for), in words. */
  requiredFields: readonly string[];
  /** The profile's own checks, run after EN 16931's on every request naming it (and on inspect). */
  rules: readonly Rule[];
  /**
   * A received EN 16931 document (CII or UBL) is this profile's when this says so, e.g. by its
   * BT-24; inspect then checks it under this profile. Absent: never recognised (EN 16931 is the
   * fallback).
   */
  recognise?: (document: InboundInvoice) => boolean;
  /** The kind of document a recognised BT-24 names beside the profile (PINT: self-billing), shown after its title. */
  documentKind?: (document: InboundInvoice) => string | undefined;
  /** A recognised document's totals as its own rules compute them where they differ from EN 16931's (Peppol PINT). */
  inboundTotals?: (document: InboundInvoice) => InboundTotalsRules;
  /**
   * A recognised document's JSON invoice completed with the profile's own fields it states (PINT's
   * tax registration numbers, emirates, tax currency…), so that its rules and a re-issue see them.
   */
  inboundFields?: (document: InboundInvoice, invoice: InvoiceInput, folded: string[]) => InvoiceInput;
  /** The document as the JSON invoice re-issues it, where the profile writes it another way (PINT JP: a return invoice as a credit note). */
  reissuedAs?: (document: InboundInvoice) => InboundInvoice | undefined;
  /** A recognised document's rule findings without those its own rules judge on what the JSON invoice cannot state. */
  inboundIssues?: (document: InboundInvoice, issues: Issue[]) => Issue[];
  /** A request object of the format's own, optional, named after its id on the e-invoice request (FA(3)'s `ksef`). */
  requestField?: v.OptionalSchema<v.GenericSchema, undefined>;
  /**
   * A format whose checks need more than the invoice (FA(3)'s `ksef`, FatturaPA's `fatturapa`
   * object): the request without `profile` checked by the module itself instead of EN 16931 +
   * `rules` (prepareEInvoice.ts); every issue returned, not thrown, unless the body is no valid
   * invoice or its own object is malformed.
   */
  checkRequest?: (invoiceBody: unknown) => CheckedRequest;
  /** A syntax of the format's own (FA(3), FatturaPA, ZUGFeRD 1.0) that inbound reads. */
  reader?: OwnSyntaxReader;
  /** A syntax of the format's own that it writes: the file for a prepared invoice. */
  writer?: OwnSyntaxWriter;
  /** The docs' line for this profile (docs/e-invoices-national.md's table, generated). */
  docs: { whatYouGet: string; formats: string; businessProcess: string };
  /** The profile's own codes and fields on top of the EN 16931 document (Peppol PINT, Croatia). */
  adapt?: (document: EInvoiceDocument, prepared: PreparedInvoice) => EInvoiceDocument;
  /** EN 16931's rules as the profile applies them (PINT: on its own tax identifier); default checkEn16931. */
  baseRules?: (prepared: PreparedInvoice) => Issue[];
  /** A request that passes the profile's rules: an OpenAPI example named after the profile. */
  example?: InvoiceInput & { profile: Id };
}

/**
 * A request checked by its format's module. `formatAmounts` are the amounts as the format writes
 * them, which validate answers beside its totals; `own` is the format's own request object parsed
 * and checked (FatturaPA's fields), which travels on with the invoice to the format's writer and
 * validate's report; only the module that returned it reads it (formats/fatturapa/request.ts).
 */
export interface CheckedRequest {
  prepared: PreparedInvoice;
  issues: Issue[];
  formatAmounts?: Record<string, string>;
  own?: unknown;
}

/** A format this service reads but does not write (ZUGFeRD 1.0): no profile, only a reader. */
export interface ReadOnlyFormat {
  id: string;
  title: string;
  reader: OwnSyntaxReader;
}

/** How inbound reads a syntax of a format's own: a root element it recognises, and the reading. */
export interface OwnSyntaxReader {
  /** As named to a client whose document is none of the known ones (einvoice_unknown_root). */
  describe: string;
  /** Text any document of this syntax contains (its namespace): a PDF's other attachments are skipped unparsed. */
  marker: string;
  /** Its specification identifiers as the inspect answer and the PDF name them (inbound/customizations.ts). */
  customizations?: readonly (readonly [RegExp, string])[];
  /**
   * Every document of a file that may hold several (FatturaPA's bodies), in order; `read` is the
   * first. inspect compares each one's totals, and the `document` argument picks the one read.
   */
  readAll?(root: XNode): InboundInvoice[];
  /** Whether `root` is this syntax's (namespace and local name). */
  matches(root: XNode): boolean;
  read(root: XNode): InboundInvoice;
  /** A code a printed copy of this syntax's documents must carry (FA(3): the KSeF verification QR, KOD I). */
  verificationCode?: VerificationCodeHook;
}

/**
 * How render.pdf prints a format's verification code (src/einvoice/inbound/readInboundRequest.ts asks
 * every reader's hook; the generic code knows no format): the render arguments it takes, and the code.
 */
export interface VerificationCodeHook {
  /** Its render.pdf arguments (query parameters, or JSON fields as over MCP), each optional. */
  arguments: Record<string, v.OptionalSchema<v.GenericSchema, undefined>>;
  /**
   * The code of a document this reader read (else undefined), from the bytes of its own file exactly as
   * received (`file`: the XML sent, a .p7m's content or a PDF's attachment; undefined for an invoice inside
   * a Peppol envelope, src/einvoice/inbound/readInbound.ts) and the checked arguments, the server's
   * configured defaults (src/operations/inboundOperations.ts) under the request's.
   * A bad argument is an InputRejected naming it: a 400 before anything is charged.
   */
  build(
    invoice: InboundInvoice,
    received: { file: Uint8Array | undefined; format: 'xml' | 'pdf' },
    args: Readonly<Record<string, unknown>>,
  ): VerificationCode | undefined;
}

/**
 * How a syntax of the format's own is written: from the request body (its `profile`, if any, the format's), since
 * such a format may take its own request object (FA(3)'s `ksef`), checked under its rules (an
 * InputRejected naming every issue, before any payment) and written in one step, on the compute pool.
 */
interface OwnSyntaxWriter {
  mediaType: string;
  /** Its single route (src/operations/eInvoiceOperations.ts) and its files' name ending, which a batch of it uses too. */
  route: string;
  fileSuffix: string;
  /**
   * The format's specimen hook: with `specimen` (paid with test money) the file is marked as a test
   * document the way the format can (FatturaPA: the specimen note leading Causale; CII and UBL are
   * marked by src/einvoice/specimenMarks.ts). The prepared invoice answered stays unmarked.
   */
  write(body: unknown, options?: { specimen?: boolean }): { prepared: PreparedInvoice; file: Uint8Array };
}

/** Declares a format module, keeping its id, syntaxes and example as literal types for the derived enums. */
export const defineFormat = <const M extends FormatModule>(module: M): M => module;
