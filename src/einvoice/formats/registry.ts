import { en16931 } from './en16931/format.js';
import { fatturapa } from './fatturapa/format.js';
import { fr } from './fr/format.js';
import { ksef } from './ksef/format.js';
import { hr } from './hr/format.js';
import { peppol } from './peppol/format.js';
import { pintAe, pintAunz, pintEu, pintJp, pintMy, pintSg } from './pint/formats.js';
import { verifactu } from './verifactu/format.js';
import { xrechnung } from './xrechnung/format.js';
import { zugferd1 } from './zugferd1/format.js';
import type {
  FormatModule,
  OwnSyntaxReader,
  OwnSyntaxWriter,
  ReadOnlyFormat,
  RecordFileReader,
  VerificationCodeHook,
} from './format.js';

/**
 * Every e-invoice format and profile this service knows, in the order the docs list them; the first
 * is the default profile. Adding one is a folder under src/einvoice/formats/ and one line here
 * (docs/architecture.md shows the recipe): the profile enum, /v1/schema, the routes of a syntax of
 * its own with their prices, OpenAPI entries and MCP tools, the batch formats, validate's report,
 * inspect's recognition and docs/e-invoices-national.md's table follow from it.
 */
export const FORMATS = [
  en16931,
  xrechnung,
  peppol,
  fr,
  ksef,
  fatturapa,
  pintEu,
  pintAunz,
  pintSg,
  pintJp,
  pintMy,
  pintAe,
  hr,
  verifactu,
] as const;

/** Formats only read (inspect, render.pdf), never written. */
const READ_ONLY_FORMATS: readonly ReadOnlyFormat[] = [zugferd1];

/** Every syntax of a format's own that inbound reads, besides CII and UBL. */
export const OWN_SYNTAX_READERS: readonly OwnSyntaxReader[] = [...FORMATS, ...READ_ONLY_FORMATS].flatMap((format) =>
  'reader' in format && format.reader ? [format.reader] : [],
);

/** The readers of files that hold records about invoices, not an invoice (inspect reports them; render.pdf refuses them). */
export const RECORD_FILE_READERS: readonly RecordFileReader[] = (FORMATS as readonly FormatModule[]).flatMap(
  (format) => (format.records ? [format.records] : []),
);

/** The verification codes printed copies of the formats' documents carry (render.pdf). */
export const VERIFICATION_CODES: readonly VerificationCodeHook[] = (FORMATS as readonly FormatModule[]).flatMap(
  (format) => (format.verificationCode ? [format.verificationCode] : []),
);

/** The formats that write a syntax of their own: each has its route and batch format. */
export type OwnSyntaxFormat = FormatModule<(typeof FORMATS)[number]['id']> & { writer: OwnSyntaxWriter };
export const OWN_SYNTAX_FORMATS: readonly OwnSyntaxFormat[] = (FORMATS as readonly FormatModule[]).filter(
  (format): format is OwnSyntaxFormat => format.writer !== undefined,
);

/** The operation id of a route: its path's words joined by _ (/v1/e-invoice/ksef.xml: v1_e_invoice_ksef_xml). */
export const operationIdOf = (route: string): string => route.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '_');
