import type { OwnSyntaxFormat } from './formats/registry.js';
import type { WrittenFile } from './formats/format.js';
import { prepareOwnSyntaxRequest, type ProfiledInvoice } from './prepareEInvoice.js';

/**
 * A request for a syntax of a format's own (formats/format.ts OwnSyntaxWriter), checked and written
 * in one step, on the compute pool: its route's parse and a batch item's. `written` is the unmarked
 * file; paid with test money, the writer's specimen hook marks it.
 */
export interface OwnSyntaxFile {
  checked: ProfiledInvoice;
  written: WrittenFile & { fileName: string };
}

export function writeOwnSyntax(format: OwnSyntaxFormat, body: unknown, at: Date = new Date()): OwnSyntaxFile {
  const checked = prepareOwnSyntaxRequest(format.id, format.writer.route, body);
  const written = format.writer.write(checked, at);
  return {
    checked,
    written: { ...written, fileName: written.fileName ?? `${fileStem(checked.prepared)}${format.writer.fileSuffix}` },
  };
}

/** A safe file name from the invoice number: letters, digits, dot, dash, underscore. */
export function fileStem(prepared: ProfiledInvoice['prepared']): string {
  return `invoice-${prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64)}`;
}
