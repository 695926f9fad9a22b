import * as v from 'valibot';
import type { OwnSyntaxContext, OwnSyntaxFile } from '../einvoice/ownSyntax.js';
import type { EInvoiceProfile } from '../einvoice/profiles.js';
import { InputRejected, validationFailed, type Issue } from '../errors.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { toIssues } from '../invoice/issues.js';
import { EInvoiceRequestSchema } from '../einvoice/requestSchema.js';
import { BATCH_FORMAT_NAMES, BATCH_FORMATS, type BatchFormat, type BatchFormatEntry } from './batchFormats.js';

/**
 * At most this many invoices in one batch (one payment): at the default 0.02 USD per invoice the
 * largest batch costs exactly the 1 USD a stock x402 client pays without its owner raising its cap
 * (payment/price.ts STOCK_CLIENT_MAX_PAYMENT_USD; config.ts refuses a per-invoice price that would
 * take the largest batch above it). More invoices: several batches, one payment each.
 */
export const MAX_BATCH_ITEMS = 50;

const formatSchema = v.optional(
  v.picklist(BATCH_FORMAT_NAMES, `must be one of ${BATCH_FORMAT_NAMES.join(', ')}`),
  'pdf',
);
const countMessages = [
  `must hold at least 1 invoice`,
  `must hold at most ${MAX_BATCH_ITEMS} invoices; split the batch`,
] as const;

/**
 * The request body of POST /v1/invoices.zip, as documented (OpenAPI, MCP): the invoices in full,
 * each as its format's single route takes it (so an e-invoice item may name its own `profile`;
 * a pdf item may not).
 */
export const BatchRequestSchema = v.strictObject({
  format: formatSchema,
  invoices: v.pipe(
    v.array(EInvoiceRequestSchema),
    v.minLength(1, countMessages[0]),
    v.maxLength(MAX_BATCH_ITEMS, countMessages[1]),
  ),
});

/** The outer shape only: each invoice is then checked by its format's own preparation. */
const BatchShapeSchema = v.strictObject({
  format: formatSchema,
  invoices: v.pipe(
    v.array(v.unknown()),
    v.minLength(1, countMessages[0]),
    v.maxLength(MAX_BATCH_ITEMS, countMessages[1]),
  ),
});

export interface PreparedBatch {
  format: BatchFormat;
  invoices: PreparedInvoice[];
  /** Each invoice's e-invoice profile (its `profile`, en16931 when absent), in item order. */
  profiles: EInvoiceProfile[];
  /** A format module's own syntax (FA(3), FatturaPA): each item checked and its file written (batchFormats.ts), unmarked. */
  ownFiles?: OwnSyntaxFile[];
  /** Paid with test money (src/operations/specimenBatch.ts): every file is marked before it is written. */
  specimen?: boolean;
}

/**
 * Validates a whole batch before anything about payment: the outer shape, then every invoice with
 * the checks of the format's single route, then unique invoice numbers. Throws one InputRejected
 * listing every issue of every item, paths prefixed with the item (`invoices[3].line_items[0].quantity`);
 * a batch with one bad item is refused whole (and never charged).
 *
 * Two items with the same invoice number are refused rather than renamed: an invoice number
 * identifies one invoice (EN 16931 BT-1), so a repeat is a mistake in the batch, and a suffixed copy
 * would hide it.
 */
export function prepareBatch(
  body: unknown,
  context?: { now?: string; settings?: OwnSyntaxContext['settings'] },
): PreparedBatch {
  const shape = v.safeParse(BatchShapeSchema, body, { abortEarly: false });
  if (!shape.success) throw validationFailed(toIssues(shape.issues));
  const { format, invoices } = shape.output;
  const { prepare } = BATCH_FORMATS[format];
  const issues: Issue[] = [];
  const prepared: PreparedInvoice[] = [];
  const profiles: EInvoiceProfile[] = [];
  const ownFiles: OwnSyntaxFile[] = [];
  let code: string | undefined;
  invoices.forEach((item, index) => {
    try {
      // Each file after those before it: a chaining format's records follow each other in item order.
      const profiled: ReturnType<BatchFormatEntry['prepare']> = prepare(item, {
        ...(context?.now ? { at: new Date(context.now) } : {}),
        settings: context?.settings,
        earlier: ownFiles,
      });
      prepared.push(profiled.prepared);
      profiles.push(profiled.profile);
      if (profiled.ownFile) ownFiles.push(profiled.ownFile);
    } catch (error) {
      if (!(error instanceof InputRejected)) throw error;
      // A single failing rule family keeps its code (en16931_rules_failed); a mix is validation_failed.
      code = code === undefined || code === error.code ? error.code : 'validation_failed';
      for (const issue of error.issues ?? [{ path: '', code: error.code, message: error.message }])
        issues.push({ ...issue, path: itemPath(index, issue.path) });
    }
  });
  if (issues.length === 0) issues.push(...duplicateNumbers(prepared));
  if (issues.length > 0) throw batchRejected(code ?? 'validation_failed', issues);
  return {
    format,
    invoices: prepared,
    profiles,
    ...(ownFiles.length > 0 ? { ownFiles } : {}),
  };
}

const itemPath = (index: number, path: string) =>
  path === ''
    ? `invoices[${index}]`
    : path.startsWith('[')
      ? `invoices[${index}]${path}`
      : `invoices[${index}].${path}`;

function duplicateNumbers(invoices: readonly PreparedInvoice[]): Issue[] {
  const first = new Map<string, number>();
  const issues: Issue[] = [];
  invoices.forEach(({ invoice }, index) => {
    const key = invoice.invoice_number.trim().toLowerCase();
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, index);
    else
      issues.push({
        path: `invoices[${index}].invoice_number`,
        code: 'duplicate_invoice_number',
        message: `repeats the invoice number of invoices[${earlier}] (${invoice.invoice_number}); every invoice in a batch needs its own number`,
      });
  });
  return issues;
}

function batchRejected(code: string, issues: Issue[]): InputRejected {
  const items = [
    ...new Set(
      issues.map((issue) => /^invoices\[(\d+)\]/.exec(issue.path)?.[1]).filter((index) => index !== undefined),
    ),
  ];
  const where = items.length === 1 ? `invoice ${items[0]}` : `invoices ${items.join(', ')}`;
  const summary =
    issues.length === 1
      ? `${issues[0]!.path}: ${issues[0]!.message}`
      : `${issues.length} problems in ${where}; see issues`;
  return new InputRejected(code, `The batch is invalid: ${summary}. Nothing was charged.`, issues);
}
