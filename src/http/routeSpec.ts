import type { Context } from 'koa';
import type * as v from 'valibot';
import type { Answer } from './answer.js';

/**
 * One row of the route table. The router, the payment gate and every discovery document
 * (OpenAPI, x402 manifest, llms.txt, api-catalog, sitemap) are generated from these rows, so a
 * route is described once.
 */
export interface RouteSpec<TInput = unknown> {
  method: 'GET' | 'POST';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  tag: 'Invoices' | 'Helpers' | 'Discovery' | 'Operations';
  /** JSON request body: validated (every issue listed) before payment or work. */
  request?: {
    schema: v.GenericSchema;
    example: unknown;
    /** Further named examples for the OpenAPI document (`example` is then listed as "minimal"). */
    moreExamples?: Record<string, unknown>;
    /** Turns the parsed JSON into the handler's input; throws InputRejected with every issue. */
    parse(body: unknown): TInput;
    /**
     * Over HTTP, `parse` gets the body as a JsonText (not yet parsed) instead: the route parses and
     * validates it on a worker thread (offloadedRoutes.ts). MCP still hands it parsed arguments.
     */
    parsesText?: boolean;
    /**
     * Over HTTP the body is not JSON but a document of one of these media types (an inbound
     * e-invoice: XML or PDF), read as bytes within `limitBytes` and handed to `parseBytes` with the
     * query string (which may read the document off the event loop, before any payment); other
     * media types are a 415. MCP still hands `parse` its JSON arguments.
     */
    bytes?: { mediaTypes: readonly string[]; limitBytes: number; parseBytes(body: Buffer, mediaType: string, query: Record<string, string | undefined>): TInput | Promise<TInput> };
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
   * The route's work: returns its answer, never writes the response (answer.ts). A paid route's
   * work runs while the facilitator verifies; `signal` aborts when verify refused the payment. Work
   * that needs scarce capacity (a render) must claim it before returning, throwing at once when
   * there is none: the payment gate asks the facilitator only about work that was admitted.
   */
  handle(input: TInput, call: { signal: AbortSignal }): Answer | Promise<Answer>;
}

/** A route with its price resolved from configuration ("0" when free). */
export interface PricedRoute extends RouteSpec {
  priceUsd: string;
}

export const isPaid = (route: PricedRoute): boolean => Number(route.priceUsd) > 0;

/** The work of a paid route, started by the payment gate once the authorization is claimed. */
export type PaidWork = (signal: AbortSignal) => Answer | Promise<Answer>;

/** The payment step of a priced route: runs the work, settles, and writes the answer. */
export type PaymentGate = (ctx: Context, work: PaidWork) => Promise<void>;
export type PaymentGateFactory = (route: PricedRoute) => PaymentGate;
