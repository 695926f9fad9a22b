import { prepareProfiledEInvoice, type ProfiledInvoice } from '../einvoice/prepareEInvoice.js';
import { DEFAULT_PROFILE } from '../einvoice/profiles.js';
import { OWN_SYNTAX_FORMATS, type OwnSyntaxFormat } from '../einvoice/formats/registry.js';
import { writeOwnSyntax, type OwnSyntaxContext, type OwnSyntaxFile } from '../einvoice/ownSyntax.js';
import { prepareInvoice } from '../invoice/prepareInvoice.js';

export interface BatchFormatEntry {
  /**
   * The item checked (and, for a syntax of a format's own, written: `ownFile`) as its single route
   * does, after the files written before it in the batch (`context.earlier`: a chaining writer follows them).
   */
  prepare(body: unknown, context?: OwnSyntaxContext & { at?: Date }): ProfiledInvoice & { ownFile?: OwnSyntaxFile };
  suffix: string;
  mimeType: string;
  singleRoute: string;
}

/**
 * A batch format per format module that writes a syntax of its own (FA(3), FatturaPA): each item is
 * checked and written as its route does (ownSyntax.ts); a batch paid with test money is marked by
 * the writer's specimen hook (produceBatch.ts batchItemXml).
 */
const OWN_SYNTAX_BATCH_FORMATS = Object.fromEntries(
  OWN_SYNTAX_FORMATS.map((format): [string, BatchFormatEntry] => [
    format.id,
    {
      prepare: (body, context) => {
        const ownFile = writeOwnSyntax(format, body, context?.at ?? new Date(), context);
        return { ...ownFile.checked, ownFile };
      },
      suffix: format.writer.fileSuffix,
      mimeType: format.writer.mediaType,
      singleRoute: format.writer.route,
    },
  ]),
) as Record<OwnSyntaxFormat['id'], BatchFormatEntry>;

/**
 * The output formats a batch can be made in, each with the checks of its single route (the plain
 * PDF's for pdf; for the e-invoices EN 16931's and those of the item's own `profile`, which then
 * writes that item's XML, as on the single routes) and its file name ending.
 */
export const BATCH_FORMATS = {
  pdf: {
    prepare: (body: unknown) => ({ prepared: prepareInvoice(body), profile: DEFAULT_PROFILE }),
    suffix: '.pdf',
    mimeType: 'application/pdf',
    singleRoute: '/v1/invoice.pdf',
  },
  'factur-x': {
    prepare: (body: unknown) => prepareProfiledEInvoice(body, 'factur-x'),
    suffix: '-factur-x.pdf',
    mimeType: 'application/pdf',
    singleRoute: '/v1/e-invoice/factur-x.pdf',
  },
  cii: {
    prepare: (body: unknown) => prepareProfiledEInvoice(body, 'cii'),
    suffix: '-cii.xml',
    mimeType: 'application/xml',
    singleRoute: '/v1/e-invoice/cii.xml',
  },
  ubl: {
    prepare: (body: unknown) => prepareProfiledEInvoice(body, 'ubl'),
    suffix: '-ubl.xml',
    mimeType: 'application/xml',
    singleRoute: '/v1/e-invoice/ubl.xml',
  },
  ...OWN_SYNTAX_BATCH_FORMATS,
} as const satisfies Record<string, BatchFormatEntry>;

export type BatchFormat = keyof typeof BATCH_FORMATS;
export const BATCH_FORMAT_NAMES = Object.keys(BATCH_FORMATS) as BatchFormat[];
