import type * as v from 'valibot';
import type { Issue } from '../../errors.js';
import type { PageTopCode, PreparedInvoice, Surcharge } from '../../invoice/prepareInvoice.js';
import type { EInvoiceDocument } from '../document.js';
import type { InvoiceInput } from '../../invoice/schema.js';
import type { XNode } from '../../xml/xmlTree.js';
import type { InboundInvoice, TotalsComparison } from '../inbound/model.js';
import type { VerificationCode } from '../../invoice/inboundInvoice.js';
import type { Rule } from '../rules.js';

/**
 * One e-invoice format or profile, declared in one place (src/einvoice/formats/<id>/format.ts) and
 * listed by the registry (registry.ts). Its fields are grouped by what they serve: what it is (as
 * clients are told), writing, checking, reading and printing. Everything the service says or does
 * per format derives from here: the profile enum and /v1/schema, the e-invoice routes of a syntax of
 * its own with their prices, OpenAPI entries and MCP tools, the batch formats, validate's report,
 * inspect's recognition and the docs' tables (docs/architecture.md, generated from these comments,
 * shows how to add one). Code outside src/einvoice/formats/ names no format.
 */
export interface FormatModule<Id extends string = string, Syntax extends string = string, Own = unknown> {
  // — What it is —
  /** The request's `profile` value; also the folder name. */
  id: Id;
  /** Its name in /v1/schema, inspect's answer and refusals. */
  title: string;
  /** One line for the `profile` field's description and llms.txt, e.g. "XRechnung 3.0, CII, UBL or Factur-X". */
  blurb: string;
  /** BT-24 as written; validate answers it, and a received document is first recognised by it. */
  specification: string;
  /** BT-23 when the request names none. */
  defaultBusinessProcess?: string;
  /** The official rule sets its checks implement, with the versions they follow (validate, /v1/schema). */
  ruleSets: readonly string[];
  /** The request fields it requires beyond EN 16931 (what its checks ask for), in words (/v1/schema). */
  requiredFields: readonly string[];
  /** Its lines in the docs: docs/e-invoices-national.md's table (generated) and, with `reading`, llms.txt. */
  docs: FormatDocs;
  /** A request that passes its checks: an OpenAPI example named after it, and its own route's example. */
  example?: InvoiceInput & { profile: Id };

  // — Writing —
  /** The syntaxes it is written in: the EN 16931 bindings (cii, ubl, factur-x) or one of its own (with `writer`). */
  writes: readonly Syntax[];
  /** Factur-X / ZUGFeRD hybrid: the embedded file's name and the XMP fx:ConformanceLevel. */
  hybrid?: { fileName: string; conformanceLevel: 'EN 16931' | 'XRECHNUNG' };
  /** Its own codes and fields on top of the EN 16931 document written as CII or UBL (Peppol PINT, Croatia). */
  adapt?: (document: EInvoiceDocument, prepared: PreparedInvoice) => EInvoiceDocument;
  /** A syntax of its own (FA(3), FatturaPA): its route, file and specimen mark; its batch format follows. */
  writer?: OwnSyntaxWriter<Own>;

  // — Checking —
  /** How a request naming it is checked before payment (and a received document by inspect); absent: EN 16931 alone. */
  checks?: FormatChecks<Own>;

  // — Reading —
  /** Hooks for a received document recognised as its own (inspect, render.pdf); absent: never recognised. */
  reading?: ReadingHooks;
  /** A syntax of its own that inbound reads (FA(3), FatturaPA, ZUGFeRD 1.0). */
  reader?: OwnSyntaxReader;
  /** Files of its own that hold records about invoices, not an invoice (VERI*FACTU's billing records): inspect reports them, render.pdf refuses them. */
  records?: RecordFileReader;

  // — Printing —
  /** A code a printed copy of its documents must carry (FA(3): the KSeF verification QR, KOD I). */
  verificationCode?: VerificationCodeHook;
  /** What its request object adds to the invoice PDFs under any profile (VERI*FACTU: the QR tributario, the equivalence surcharge). */
  printing?: PrintingHook;
}

/**
 * How a format's own request object (checks.own.field, named after its id) prints on the invoice
 * PDFs of every profile: POST /v1/invoice.pdf and its validate, and /v1/e-invoice/factur-x.pdf
 * (src/einvoice/printing.ts asks every format's hook; the generic code knows none). The object is
 * parsed with its schema (issues at `<id>.…`, with the invoice's), then handed to `print`.
 */
export interface PrintingHook {
  /** What it prints, in words for the routes' descriptions (OpenAPI, MCP). */
  summary: string;
  /**
   * What the page prints for the invoice with the parsed object, as of the request's moment `at`.
   * A request the format refuses is an InputRejected naming the field: a 400 before any payment.
   */
  print(prepared: PreparedInvoice, object: unknown, at: Date): PrintedAdditions;
}

/** What a printing hook adds to the page: a code at the top of page 1, and surcharges on top of VAT (each a row, counted in the total). */
export interface PrintedAdditions {
  pageTopCode?: PageTopCode;
  surcharges?: readonly Surcharge[];
}

/** A format's lines in the docs. */
interface FormatDocs {
  whatYouGet: string;
  formats: string;
  businessProcess: string;
  /** llms.txt's paragraph on reading and printing its received documents, where it has more to say than its title. */
  reading?: string;
}

/**
 * The checks of a request under a format, composed in this order by prepareEInvoice.ts: the base
 * (EN 16931's rules, or the format's version of them), then its own rules, then the checks of its own
 * request object. A malformed request object, like a malformed invoice, is a 400 before any check.
 */
export interface FormatChecks<Own = unknown> {
  /**
   * EN 16931's rules as the format applies them (PINT: on its own tax identifier). Absent: EN 16931's
   * own (rules.ts checkEn16931), with an invoice's model failures named by their EN 16931 rule ids.
   * `none`: a syntax that is not EN 16931 (FA(3), FatturaPA), whose own checks stand alone.
   */
  base?: 'none' | ((prepared: PreparedInvoice) => Issue[]);
  /** The profile's own rules, each with its official id, run after the base. */
  rules?: readonly Rule[];
  /** A request object of the format's own, named after its id (FA(3)'s `ksef`, FatturaPA's `fatturapa`). */
  own?: OwnRequestObject<Own>;
}

/**
 * A request object of a format's own, optional, beside the invoice: taken only with its profile
 * (another profile refuses it by name), parsed with issues at `<id>.…`, then checked with the invoice.
 */
interface OwnRequestObject<Own = unknown> {
  /** Its schema as the request documents it (OpenAPI, MCP) and as it is parsed (absent: `{}`). */
  field: v.OptionalSchema<v.GenericSchema, undefined>;
  /**
   * Every issue of the invoice with the parsed object (returned, not thrown), and what the format
   * keeps of the check (`own`): it travels with the checked request to the writer and validate's report.
   * `at` is the request's moment (a check that depends on today, a record stamped with it).
   */
  check(prepared: PreparedInvoice, object: unknown, at: Date): { issues: Issue[]; own: Own };
  /** What validate answers for it beside the totals, as a field of its own (`key`). */
  report?: {
    key: string;
    schema: v.OptionalSchema<v.GenericSchema, undefined>;
    build(prepared: PreparedInvoice, own: Own): unknown;
  };
}

/** Hooks for a received document that a format recognises as its own. */
interface ReadingHooks {
  /** Whether a received document is this format's (e.g. by its BT-24); inspect then checks it under this format. */
  recognises(document: InboundInvoice): boolean;
  /** The kind of document it names beside the profile (PINT: self-billing), shown after its title. */
  kind?: (document: InboundInvoice) => string | undefined;
  /**
   * Its totals (BG-22) beside the totals its lines give, as its own rules compute them where they
   * differ from EN 16931's (PINT's jurisdictions; FA(3)'s gross-priced lines and advances).
   */
  totals?: (document: InboundInvoice) => TotalsComparison;
  /**
   * Its JSON invoice completed with the format's own fields it states (PINT's tax registration
   * numbers, emirates, tax currency…), so that its rules and a re-issue see them.
   */
  fields?: (document: InboundInvoice, invoice: InvoiceInput, folded: string[]) => InvoiceInput;
  /** The document as the JSON invoice re-issues it, where the format writes it another way (PINT JP: a return invoice as a credit note). */
  reissuedAs?: (document: InboundInvoice) => InboundInvoice | undefined;
  /** Its rule findings without those its own rules judge on what the JSON invoice cannot state. */
  issues?: (document: InboundInvoice, issues: Issue[]) => Issue[];
}

/**
 * Files of a format's own that are not an invoice but records about invoices (VERI*FACTU's
 * RegFactuSistemaFacturacion: billing records chained by their huella). The inbound reading hooks
 * return invoices, which such a file does not hold: inspect answers this reader's report instead of
 * an invoice's (src/einvoice/inbound/recordFiles.ts), and render.pdf refuses the file before payment.
 */
export interface RecordFileReader {
  /** What such a file is, as inspect's answer and render.pdf's refusal name it. */
  describe: string;
  /** Text every such file contains (its namespace): only a file holding it is parsed to be recognised. */
  marker: string;
  /** Whether a parsed root element is such a file (bare, or inside the envelope it travels in). */
  recognises(root: XNode): boolean;
  /** inspect's answer: the file's report as plain data (its fields documented in the format's own docs). */
  inspect(root: XNode): object;
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
  /** Whether a parsed root element is this syntax's (namespace and local name). */
  recognises(root: XNode): boolean;
  read(root: XNode): InboundInvoice;
  /**
   * Every document of a file that may hold several (FatturaPA's bodies), in order; `read` is the
   * first. inspect compares each one's totals, and the `document` argument picks the one read.
   */
  readAll?(root: XNode): InboundInvoice[];
}

/**
 * How render.pdf prints a format's verification code (src/einvoice/inbound/readInboundRequest.ts asks
 * every format's hook; the generic code knows no format): the render arguments it takes, and the code.
 */
export interface VerificationCodeHook {
  /** Its render.pdf arguments (query parameters, or JSON fields as over MCP), each optional. */
  arguments: Record<string, v.OptionalSchema<v.GenericSchema, undefined>>;
  /** The server settings (config.ts names) that give an argument's default when the request names none. */
  defaults?: Record<string, string>;
  /**
   * The code of a document of this format (else undefined), from the bytes of its own file exactly as
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

/** The server settings an own-syntax writer declares (OwnSyntaxWriter.settings), by config.ts name. */
export type ServerSettings = Readonly<Record<string, string | undefined>>;

/** A request checked under its format: the invoice and what the format's own check kept (`own`). */
export interface CheckedRequest<Own = unknown> {
  prepared: PreparedInvoice;
  own?: Own;
}

/** A file written by a format's writer, with the answer's file name and headers where they are its own. */
export interface WrittenFile {
  file: Uint8Array;
  /** Content-Disposition's name (default: invoice-<number><fileSuffix>). */
  fileName?: string;
  headers?: Record<string, string>;
}

/**
 * How a syntax of a format's own is written. Its route (src/operations/eInvoiceOperations.ts) takes
 * the e-invoice request with `profile` absent or the format's, checks it under the format's checks
 * (a 400 naming every issue, before any payment) and writes it on the compute pool; a batch item of
 * the format is checked and written the same way.
 */
export interface OwnSyntaxWriter<Own = unknown> {
  /** Its single route; its operation id, price and MCP tool name follow from it. */
  route: string;
  /** The route's one-line summary (OpenAPI, MCP, llms.txt). */
  summary: string;
  /** The route's description (OpenAPI, MCP). */
  description: string;
  /** What the answer is, in OpenAPI. */
  answer: string;
  /** How the route's refusal (einvoice_rules_failed) names the rules broken, where not by the module's title. */
  refusalName?: string;
  mediaType: string;
  /** Its files' name ending (after invoice-<number>), which a batch of it uses too. */
  fileSuffix: string;
  /**
   * The server settings (config.ts names) its files carry, handed to `write` as they are configured
   * (VERI*FACTU: the SistemaInformatico block names the service's operator); absent: none.
   */
  settings?: readonly string[];
  /**
   * The file of a request checked under the format, written at `at` (a file that states when it was
   * made: FA(3), VERI*FACTU) with the server's `settings` it declares (a value absent: its default).
   */
  write(checked: CheckedRequest<Own>, at: Date, settings: ServerSettings): WrittenFile;
  /**
   * Files that chain (VERI*FACTU: each record names the previous one and its huella): a batch item's
   * checked request made to follow the files written before it in the batch, in order. A conflict
   * (an item naming another predecessor) is an InputRejected naming the field.
   */
  chain?(
    checked: CheckedRequest<Own>,
    earlier: readonly { checked: CheckedRequest; written: WrittenFile }[],
  ): CheckedRequest<Own>;
  /**
   * The file of the same request paid with test money: marked as a test document the way the format
   * can (FA(3): the specimen note leads the footer; FatturaPA: it leads Causale; CII and UBL are
   * marked by src/einvoice/specimenMarks.ts), from the checked request and its unmarked file.
   */
  specimen(checked: CheckedRequest<Own>, written: Uint8Array): Uint8Array;
}

/** Declares a format module, keeping its id, syntaxes and example as literal types for the derived enums. */
export const defineFormat = <const M extends FormatModule>(module: M): M => module;
