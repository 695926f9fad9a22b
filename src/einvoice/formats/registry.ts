import { en16931 } from './en16931/format.js';
import { fatturapa } from './fatturapa/format.js';
import { fr } from './fr/format.js';
import { ksef } from './ksef/format.js';
import { hr } from './hr/format.js';
import { peppol } from './peppol/format.js';
import { pintAe, pintAunz, pintEu, pintJp, pintMy, pintSg } from './pint/formats.js';
import { xrechnung } from './xrechnung/format.js';
import { zugferd1 } from './zugferd1/format.js';
import type { OwnSyntaxReader, ReadOnlyFormat } from './format.js';

/**
 * Every e-invoice format and profile this service knows, in the order the docs list them; the first
 * is the default profile. Adding one is a folder under src/einvoice/formats/ and one line here
 * (docs/architecture.md shows the recipe): the profile enum, /v1/schema, the OpenAPI examples, the
 * MCP descriptions, inspect's detection and docs/e-invoices-national.md's table follow from it.
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
] as const;

/** Formats only read (inspect, render.pdf), never written. */
const READ_ONLY_FORMATS: readonly ReadOnlyFormat[] = [zugferd1];

/** Every syntax of a format's own that inbound reads, besides CII and UBL. */
export const OWN_SYNTAX_READERS: readonly OwnSyntaxReader[] = [...FORMATS, ...READ_ONLY_FORMATS].flatMap((format) =>
  'reader' in format && format.reader ? [format.reader] : [],
);
