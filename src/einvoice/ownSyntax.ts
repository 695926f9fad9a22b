import type { OwnSyntaxFormat } from './formats/registry.js';
import type { ServerSettings, WrittenFile } from './formats/format.js';
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

/** What a file is written with beyond its request and moment: the server's settings, the files before it in its batch. */
export interface OwnSyntaxContext {
  settings?: ServerSettings | undefined;
  /** The files written before it in its batch, in order (a chaining writer follows them: OwnSyntaxWriter.chain). */
  earlier?: readonly OwnSyntaxFile[];
}

export function writeOwnSyntax(
  format: OwnSyntaxFormat,
  body: unknown,
  at: Date = new Date(),
  context: OwnSyntaxContext = {},
): OwnSyntaxFile {
  const { writer } = format;
  const alone = prepareOwnSyntaxRequest(format.id, writer.route, body, at);
  const earlier = context.earlier ?? [];
  const checked = writer.chain && earlier.length > 0 ? { ...alone, ...writer.chain(alone, earlier) } : alone;
  const written = writer.write(checked, at, context.settings ?? {});
  return {
    checked,
    written: { ...written, fileName: written.fileName ?? `${fileStem(checked.prepared)}${format.writer.fileSuffix}` },
  };
}

/** A safe file name from the invoice number: letters, digits, dot, dash, underscore. */
export function fileStem(prepared: ProfiledInvoice['prepared']): string {
  return `invoice-${prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64)}`;
}
