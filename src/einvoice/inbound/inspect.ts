import { InputRejected, type Issue } from '../../errors.js';
import { checkEInvoice } from '../prepareEInvoice.js';
import { DEFAULT_PROFILE, PROFILES, type EInvoiceProfile } from '../profiles.js';
import { specificationName } from './customizations.js';
import type { TotalsComparison } from './inboundTotals.js';
import type { InboundInvoice, OtherValue } from './model.js';
import { documentNationalIssues } from './nationalIssues.js';
import { documentTotals, nationalFormatOf } from './nationalProfile.js';
import { readInbound, type InboundFormat, type InboundSource } from './readInbound.js';
import { toInvoiceJson } from './toInvoiceJson.js';
import { englishNote, envelopeNotes, fileDocuments, type FileDocument } from './fileDocuments.js';
import type { InvoiceInput } from '../../invoice/schema.js';
import { minorToDecimal } from '../../invoice/money.js';
import type { Totals } from '../../invoice/totals.js';

/**
 * The answer of POST /v1/e-invoice/inspect: what the document is, its invoice as this service's
 * JSON, its own totals beside those recomputed from its lines, and the rules it breaks.
 */
export interface InspectAnswer {
  syntax: InboundInvoice['syntax'];
  document: InboundInvoice['document'];
  envelope: InboundInvoice['envelope'];
  source: {
    format: InboundFormat;
    embedded_files: number | null;
    /** A CAdES .p7m envelope: present, with its signers' certificate subjects; not verified (no trust list). */
    signature?: { present: true; verified: false; signers: string[] };
    /** A file with several documents (FatturaPA's bodies): how many it holds, and which one this answer reads (from 1). */
    documents?: number;
    document?: number;
  };
  /** A file with several documents: each with its own totals (the `document` argument reads another). */
  documents?: FileDocument[];
  customization: { id: string; name: string | null; known: boolean };
  profile: string | null;
  type_code: string;
  invoice_number: string;
  currency: string;
  /** This service's JSON invoice; send it to /v1/e-invoice/cii.xml or ubl.xml to re-issue it (with `"profile": reissue.profile`). */
  invoice: InvoiceInput;
  /** Whether re-issuing the JSON invoice under `profile` (the document's own) would be accepted with the same amounts. */
  reissue: { valid: boolean; profile: EInvoiceProfile; folded: string[]; issues: Issue[] };
  totals: TotalsComparison;
  rules: { valid: boolean; checked: string[]; issues: Issue[] };
  other_values: OtherValue[];
  notes: string[];
}

/**
 * The JSON invoice's own totals against the document's: where the smaller JSON model cannot hold
 * the document exactly (an allowance on one VAT rate of several, which the JSON discount shares
 * among all), re-issuing would change amounts, and reissue says so instead of pretending.
 */
function amountsKept(source: InboundInvoice, totals: Totals): Issue[] {
  const pairs: [string, string, string | undefined, bigint][] = [
    ['BT-110', 'tax_total', source.totals.taxTotal, totals.tax],
    ['BT-112', 'grand_total', source.totals.grandTotal, totals.total],
    ['BT-115', 'due_payable', source.totals.duePayable, totals.balanceDue],
  ];
  return pairs
    .filter(
      ([, , stated, minor]) => stated !== undefined && Number(stated) !== Number(minorToDecimal(minor, totals.digits)),
    )
    .map(([bt, field, stated, minor]) => ({
      path: `totals.${field}`,
      code: 'reissue_amounts_differ',
      message: `re-issued from the JSON invoice, ${bt} would be ${minorToDecimal(minor, totals.digits)} instead of ${stated}`,
    }));
}

export function inspectEInvoice(bytes: Uint8Array, format: InboundFormat): InspectAnswer {
  const { invoice, source } = readInbound(bytes, format);
  return buildInspectAnswer(invoice, source);
}

export function buildInspectAnswer(source: InboundInvoice, origin: InboundSource): InspectAnswer {
  // A multi-document file's documents, each with its totals compared once (the read one's included).
  const documents = fileDocuments(origin);
  const totals = documents?.find((document) => document.read)?.totals ?? documentTotals(source);
  // A national document is checked, and re-issued, under its profile: EN 16931's rules and the nation's.
  const format = nationalFormatOf(source);
  const national = format?.id;
  // The document as the JSON invoice holds it (PINT JP: a return invoice as the credit note pint-jp writes so).
  const reissued = format?.reading?.reissuedAs?.(source);
  const converted = toInvoiceJson(reissued ?? source);
  const { folded } = converted;
  if (reissued)
    folded.push(
      `the document's negative amounts are a ${national} credit note's, which ${national} writes as this invoice`,
    );
  let reissueIssues: Issue[] = [];
  let ruleIssues: Issue[] = [];
  const invoice = format?.reading?.fields
    ? format.reading.fields(reissued ?? source, converted.invoice, folded)
    : converted.invoice;
  // A kind of document this service does not write (PINT's self-billing, Japan's non-tax-registered invoice).
  const kind = format?.reading?.kind?.(source);
  if (kind) folded.push(`the document is a ${kind}; it is re-issued as the profile's plain invoice or credit note`);
  try {
    // A format's own fields (FA(3)'s kind, exemption basis, exchange rate…) travel in its request object.
    const body = source.reissueFields ? { ...invoice, ...source.reissueFields } : invoice;
    const checked = checkEInvoice(national ? { ...body, profile: national } : body);
    ruleIssues = checked.issues;
    reissueIssues = amountsKept(reissued ?? source, checked.prepared.totals);
  } catch (error) {
    if (!(error instanceof InputRejected)) throw error;
    reissueIssues = error.issues ?? [{ path: '', code: error.code, message: error.message }];
  }
  // The rules the document breaks: what the conversion or this service's own limits cause is left out (nationalIssues.ts).
  const document = national ? documentNationalIssues(source, ruleIssues) : { issues: ruleIssues, notes: [] };
  if (format?.reading?.issues) document.issues = format.reading.issues(source, document.issues);
  const issues = [
    ...totals.differences
      .filter((difference) => difference.rule !== 'line_net')
      .map((difference) => ({
        path: difference.field,
        code: difference.rule,
        message: `${difference.bt} is ${difference.document}, the lines give ${difference.recomputed} (difference ${difference.difference})`,
      })),
    ...document.issues,
  ];
  const name = specificationName(source);
  return {
    syntax: source.syntax,
    document: source.document,
    envelope: source.envelope,
    source: {
      format: origin.format,
      embedded_files: origin.embeddedFiles,
      ...(origin.signers ? { signature: { present: true, verified: false, signers: origin.signers } } : {}),
      ...(origin.documents ? { documents: origin.documents, document: origin.document ?? 1 } : {}),
    },
    ...(documents ? { documents } : {}),
    customization: { id: source.customization, name, known: name !== null },
    profile: source.profile ?? null,
    type_code: source.typeCode,
    invoice_number: source.number,
    currency: source.currency,
    invoice,
    reissue: {
      valid: reissueIssues.length === 0 && ruleIssues.length === 0,
      profile: national ?? DEFAULT_PROFILE,
      folded,
      issues: [...reissueIssues, ...ruleIssues],
    },
    totals,
    rules: {
      valid: issues.length === 0,
      checked: [
        'EN 16931 (this service’s checks)',
        ...(national ? [`${PROFILES[national].title} (this service’s checks)`] : []),
      ],
      issues,
    },
    other_values: source.otherValues,
    notes: [
      ...(name === null
        ? [`Unknown specification identifier (BT-24) ${JSON.stringify(source.customization)}: read as plain EN 16931.`]
        : []),
      ...document.notes,
      ...envelopeNotes(origin, { documents }).map(englishNote),
    ],
  };
}
