import { prepareProfiledEInvoice, type ProfiledInvoice } from '../einvoice/prepareEInvoice.js';
import { DEFAULT_PROFILE } from '../einvoice/profiles.js';
import { prepareKsefItem } from '../einvoice/formats/ksef/ksefRoute.js';
import { prepareInvoice } from '../invoice/prepareInvoice.js';

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
  // Poland's FA(3): each item is checked and written here, as the single route's parse does.
  ksef: {
    prepare: (body: unknown) => prepareKsefItem(body),
    suffix: '-ksef-fa3.xml',
    mimeType: 'application/xml',
    singleRoute: '/v1/e-invoice/ksef.xml',
  },
} as const satisfies Record<
  string,
  { prepare(body: unknown): ProfiledInvoice & { xml?: Buffer }; suffix: string; mimeType: string; singleRoute: string }
>;

export type BatchFormat = keyof typeof BATCH_FORMATS;
export const BATCH_FORMAT_NAMES = Object.keys(BATCH_FORMATS) as BatchFormat[];
