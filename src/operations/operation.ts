import type { UnseenFact } from '../render/printedFacts.js';
import type * as v from 'valibot';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';

/** What every call carries to its row's parse and work, the same over every transport. */
export interface OperationContext {
  /** Today's date (UTC) as YYYY-MM-DD, injected so tests and defaults are deterministic. */
  today: string;
  /** The call's instant (ISO 8601), for what records the moment it was made (a VERI*FACTU record's FechaHoraHusoGenRegistro). */
  now?: string;
  /** The server settings the formats' writers declare (formats/format.ts OwnSyntaxWriter.settings), as configured. */
  settings?: Readonly<Record<string, string | undefined>>;
}

/** The context of a call made at `now`: today is its UTC date. */
export const operationContextAt = (
  now: Date,
  settings?: Readonly<Record<string, string | undefined>>,
): OperationContext => ({
  today: now.toISOString().slice(0, 10),
  now: now.toISOString(),
  ...(settings ? { settings } : {}),
});

/**
 * One row of the operation list (operationList.ts). The HTTP router, the MCP tools, the compute
 * jobs, OpenAPI and every discovery document are derived from these rows: an operation is
 * described once. A row knows no transport: `parse` runs on the compute pool for every transport,
 * then the call core (callOperation.ts) prices it and runs its work.
 */
export interface Operation<TInput = unknown> {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: 'Invoices' | 'Helpers' | 'Templates' | 'Discovery' | 'Operations';
  /**
   * Whether the operation is an MCP tool when its tag alone would not decide: Invoices and Helpers
   * rows are tools unless `false` (a file upload that an agent has no use for over MCP, and whose
   * entry would squeeze the other tools in tools/list's budget); another tag's row is one when
   * `true` (v1_templates_put).
   */
  mcpTool?: boolean;
  /** JSON request body: parsed and validated on the compute pool (every issue listed) before payment or work. */
  request?: {
    schema: v.GenericSchema;
    example: unknown;
    /** Further named examples for the OpenAPI document (`example` is then listed as "minimal"). */
    moreExamples?: Record<string, unknown>;
    /** The parsed JSON body (an object) into the work's input; throws InputRejected with every issue. */
    parse(body: unknown, context: OperationContext): TInput;
    /**
     * A lookup the input names that needs more than the body (a stored theme, "theme": "sha256:…"):
     * the call core runs it on the main thread right after `parse` and before anything about
     * payment, over every transport, so what it rejects (InputRejected) is never charged.
     */
    resolve?: InputResolver<TInput>;
    /**
     * A document body: over HTTP the body is a document (one of `mediaTypes`, such as XML, PDF, or
     * a JSON form of it), read as bytes within `limitBytes` with the query parameters.
     * `parseDocument` reads it into the same input `parse` gives, on the compute pool like `parse`
     * (a document is never read on the event loop). MCP always hands `parse` its arguments.
     */
    document?: {
      mediaTypes: readonly string[];
      limitBytes: number;
      parseDocument(document: DocumentBody, context: OperationContext): TInput;
    };
  };
  response: {
    contentType: string;
    description: string;
    schema?: v.GenericSchema;
    example?: unknown;
  };
  /** Listed in the sitemap and llms.txt as a public document. */
  document?: boolean;
  /**
   * Pure work whose result is the JSON answer: a free operation computes it on the compute pool
   * right after `parse`, off the event loop. A row has `compute` or `handle`, not both.
   */
  compute?(input: TInput, context: OperationContext): unknown;
  /**
   * The row's work when it needs more than pure CPU (a render, the clock of a document): returns its
   * answer, never writes one (transports do). A paid operation's work runs while the facilitator
   * verifies; `signal` aborts when verify refused the payment. Work that needs scarce capacity (a
   * render) must claim it before returning, throwing at once when there is none: the call core
   * asks the facilitator only about work that was admitted.
   */
  handle?(input: TInput, call: WorkCall): Answer | Promise<Answer>;
  /**
   * A price that depends on the input (a batch: the configured price once per item), from the
   * parsed input and the configured price (PRICES); absent: the configured price. The call core
   * asks it once per call, after `parse` and before anything about payment; `input` is undefined
   * for a bare price probe, which is quoted one unit.
   */
  priceOf?(input: TInput | undefined, configuredUsd: string): string;
  /**
   * Paid work that is pure CPU for some inputs (a batch of XML e-invoices and its ZIP): for those,
   * the call core runs `run` on the compute pool instead of `handle`, so none of it blocks the event
   * loop while the facilitator verifies. `stopped` turns true once verify refused the payment; `run`
   * asks it between documents and throws, so refused work stops within one document.
   */
  pooled?: {
    wanted(input: TInput): boolean;
    /** `marks.specimen`: paid with test money, like WorkCall's. */
    run(input: TInput, stopped: () => boolean, marks?: { specimen?: boolean }): PooledAnswer;
  };
}

/** A pooled work's answer: plain data whose bytes cross back from the worker without a copy. */
export interface PooledAnswer {
  contentType: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface InputResolver<TInput> {
  /** Whether this input names something to look up; pure, so the compute workers can ask it too. */
  needed(input: TInput): boolean;
  /** The input completed with what it names; still plain data (it may cross to a compute worker). */
  resolve(input: TInput): Promise<TInput>;
}

/** A document as a transport read it: its bytes (after any Content-Encoding), media type and query parameters. */
export interface DocumentBody {
  bytes: Uint8Array;
  mediaType: string;
  /** The request's query parameters (the first value of each), e.g. a document's `locale`. */
  params: Record<string, string>;
}

interface WorkCall {
  signal: AbortSignal;
  /** The path's parameters (a path such as /v1/templates/{id}), over HTTP. */
  params?: Readonly<Record<string, string>>;
  /** Paid with test money (payment/trial/): every document it makes is marked as a specimen. */
  specimen?: boolean;
}

/** An operation with its price resolved from configuration ("0" when free). */
export type PricedOperation = Operation & { priceUsd: string };

export const isPaid = (operation: PricedOperation): boolean => Number(operation.priceUsd) > 0;

/**
 * What an operation's work returns instead of writing a response: a transport writes it at once
 * for a free operation, and only after settlement for a paid one.
 */
export interface Answer {
  /** 200 unless said otherwise; a paid operation's answer is settled only when it is a 200. */
  status?: number;
  /** The transport's default for the body (JSON for objects) unless given. */
  contentType?: string;
  headers?: Record<string, string>;
  body: unknown;
}

/** A paid answer as the bytes that are settled for, stored for re-sends and sent. */
export interface PaidAnswer {
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
}

export function paidAnswerOf(answer: Answer): PaidAnswer {
  const { body } = answer;
  const headers = answer.headers ?? {};
  if (Buffer.isBuffer(body)) return { contentType: answer.contentType ?? 'application/octet-stream', body, headers };
  if (typeof body === 'string')
    return { contentType: answer.contentType ?? 'text/plain; charset=utf-8', body: Buffer.from(body), headers };
  return {
    contentType: answer.contentType ?? 'application/json; charset=utf-8',
    body: Buffer.from(JSON.stringify(body)),
    headers,
  };
}

/** Renders a prepared invoice to PDF bytes; provided by src/render. */
export interface PdfRenderer {
  /**
   * Admission is decided before this returns: without a free page or queue place it throws
   * renderer_busy synchronously (the call core relies on it, `handle` above). `signal` withdraws
   * a render still waiting for a page. `specimen` stamps every page (src/render/specimenStamp.ts).
   */
  renderPdf(
    prepared: PreparedInvoice,
    options?: { signal?: AbortSignal; specimen?: boolean; preview?: boolean },
  ): Promise<{ pdf: Buffer; pages: number }>;
  /** Whether Chromium loads a font file (PUT /v1/fonts); rejects with a 400 font_invalid when not. */
  checkFont?(bytes: Uint8Array): Promise<void>;
  /** The facts each invoice's customer design misses or hides, from its laid-out page (the content contract's look). */
  designUnseenFacts?(invoices: readonly PreparedInvoice[]): Promise<UnseenFact[][]>;
}
