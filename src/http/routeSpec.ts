import type { Context, Middleware } from 'koa';
import type * as v from 'valibot';

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
    /** Turns the parsed JSON into the handler's input; throws a 400 AppError with every issue. */
    parse(body: unknown): TInput;
  };
  response: {
    contentType: string;
    description: string;
    schema?: v.GenericSchema;
    example?: unknown;
  };
  /** Listed in the sitemap and llms.txt as a public document. */
  document?: boolean;
  handle(ctx: Context, input: TInput): Promise<void> | void;
}

/** A route with its price resolved from configuration ("0" when free). */
export interface PricedRoute extends RouteSpec {
  priceUsd: string;
}

export const isPaid = (route: PricedRoute): boolean => Number(route.priceUsd) > 0;

/** Builds the Koa handler chain of a route: [body parsing → validation] → [payment] → handler. */
export type PaymentGateFactory = (route: PricedRoute) => Middleware;
