import { batchOperations } from './batchOperations.js';
import { eInvoiceOperations } from './eInvoiceOperations.js';
import { helperOperations } from './helperOperations.js';
import { inboundOperations } from './inboundOperations.js';
import { invoiceOperations } from './invoiceOperations.js';
import type { Operation, PdfRenderer } from './operation.js';
import { templateOperations } from './templateOperations.js';
import { themeOperations } from './themeOperations.js';
import { fontOperations } from './fontOperations.js';
import type { FontStore } from '../themes/fontStore.js';
import type { ThemeStore } from '../themes/themeStore.js';
import type { BatchOptions } from '../batch/produceBatch.js';

/** What operations' work may need; the compute workers build the list without any (they only parse). */
export interface OperationDependencies {
  renderer?: PdfRenderer | undefined;
  onRendered?: ((seconds: number, pages: number) => void) | undefined;
  /** Where PUT /v1/themes stores themes and invoices' theme ids are looked up. */
  themes?: ThemeStore | undefined;
  /** Where PUT /v1/fonts stores fonts and themes' font ids are looked up. */
  fonts?: FontStore | undefined;
  /** The largest font file PUT /v1/fonts takes (FONT_MAX_BYTES). */
  fontMaxBytes?: number | undefined;
  /** Where PUT /v1/templates stores design packages and invoices' design ids are looked up. */
  templates?: ThemeStore | undefined;
  /** The server's defaults of the formats' verification-code arguments on render.pdf (ksef_environment). */
  verificationDefaults?: Readonly<Record<string, unknown>> | undefined;
  /** Writes a rendered PDF batch's ZIP (batch/pdfBatchZip.ts): app.ts hands the compute pool's. */
  assembleZip?: BatchOptions['assembleZip'];
}

/**
 * THE operation list: every operation of the service, in the order the documents list them. HTTP
 * routes, MCP tools, compute jobs, OpenAPI and the discovery documents all derive from it (the
 * service's own documents and probes are added beside it in app.ts). Adding an operation is adding
 * its row here.
 */
export function operationList(deps: OperationDependencies = {}): Operation[] {
  const stores = { themes: deps.themes, fonts: deps.fonts, templates: deps.templates };
  return [
    ...invoiceOperations(deps.renderer, deps.onRendered, stores),
    ...eInvoiceOperations(deps.renderer, deps.onRendered, stores),
    ...batchOperations(deps.renderer, deps.onRendered, stores, deps.assembleZip),
    ...themeOperations(deps.themes),
    ...fontOperations(deps.fonts, deps.renderer, deps.fontMaxBytes),
    ...templateOperations(stores, deps.renderer),
    ...inboundOperations(deps.renderer, deps.onRendered, deps.verificationDefaults),
    ...helperOperations(),
  ];
}
