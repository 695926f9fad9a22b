import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { AppError } from '../errors.js';
import type { Lifecycle } from '../lifecycle.js';
import type { OperationCaller } from '../operations/callOperation.js';
import { isPaid, type DocumentBody, type PricedOperation } from '../operations/operation.js';
import type { PayerAdmission } from '../payment/paymentProcessor.js';
import { documentBody } from './documentBody.js';
import { jsonBytes } from './jsonBody.js';
import { PAYMENT_SIGNATURE } from './paymentEncoding.js';
import { readPaymentSignature } from './paymentSignature.js';
import { readSignInHeader } from './signInHeader.js';
import { writeOutcome } from './writeOutcome.js';

/**
 * The Koa adapter of the operation list: for each operation, read its JSON body as bytes, or a document
 * row's document as bytes (documentBody.ts; 415/413/400 for what can't be read), hand body and
 * PAYMENT-SIGNATURE to the call core (operations/callOperation.ts), which parses and validates on
 * the compute pool before anything about payment, and write the outcome (writeOutcome.ts).
 */
export function buildRouter(
  operations: readonly PricedOperation[],
  options: { bodyLimitBytes: number; caller: OperationCaller; lifecycle?: Lifecycle | undefined },
) {
  const router = new Router();
  const { caller, lifecycle } = options;
  for (const operation of operations) {
    const chain: Middleware[] = [];
    const paid = isPaid(operation);
    if (operation.request && caller.answersPriceProbe(operation)) chain.push(priceProbe(operation, caller));
    if (operation.request)
      chain.push(
        operation.request.document ? documentBody(operation.request.document) : jsonBytes(options.bodyLimitBytes),
      );
    chain.push(async (ctx) => {
      try {
        const header = ctx.get(PAYMENT_SIGNATURE);
        const signIn = ctx.get('SIGN-IN-WITH-X');
        const outcome = await caller.call(operation, {
          ...(operation.request ? { body: requestBody(ctx) } : {}),
          ...(ctx.params && Object.keys(ctx.params).length > 0 ? { params: { ...ctx.params } } : {}),
          ...(paid && header ? { payment: { read: () => readPaymentSignature(header) } } : {}),
          hooks: {
            ...(paid && signIn ? { signIn: { read: () => readSignInHeader(signIn) } } : {}),
            admitPayer: ctx.state.admitPayer as PayerAdmission | undefined,
            onVerified: (details) => (ctx.state.logFields = details),
            onResultNotStored: (error) =>
              (ctx.state.logFields = { ...ctx.state.logFields, resultNotStored: String(error) }),
            whenDelivered: (done) => whenResponseDone(ctx, done),
          },
        });
        writeOutcome(ctx, outcome);
      } finally {
        // Draining: this answer ends its connection. A keep-alive client would otherwise go on
        // sending paid requests over it (the closed listener only stops new connections), keeping
        // the drain busy until the deadline cuts them off.
        if (paid && lifecycle?.draining) ctx.set('Connection', 'close');
      }
    });
    // An OpenAPI path parameter, /v1/templates/{id}, is koa-router's /v1/templates/:id.
    router.register(operation.path.replace(/\{(\w+)\}/g, ':$1'), [operation.method], chain, {
      name: operation.operationId,
    });
  }
  return router;
}

/** What the body middleware read: a document row's document, or a JSON body's bytes (decoded on the pool). */
const requestBody = (ctx: Context) => {
  const document = ctx.state.document as DocumentBody | undefined;
  return document ? { document } : { bytes: ctx.request.body as Uint8Array | undefined };
};

/**
 * Crawlers (x402scan, the CDP bazaar) probe a paid operation with a bare POST: no body, no
 * Content-Type. Such a request can only be asking what the operation costs, so it gets the 402
 * challenge instead of a 415/400. Only without PAYMENT-SIGNATURE: a paid request must carry a
 * valid body, and one without is refused (415/400) before anything about payment, never charged.
 * An empty body is one without bytes: no Transfer-Encoding and no (or a zero) Content-Length.
 */
function priceProbe(operation: PricedOperation, caller: OperationCaller): Middleware {
  return async (ctx, next) => {
    const empty =
      ctx.get('Transfer-Encoding') === '' && (ctx.get('Content-Length') === '' || ctx.get('Content-Length') === '0');
    if (!empty || ctx.get(PAYMENT_SIGNATURE) !== '') return next();
    writeOutcome(ctx, await caller.call(operation, { priceProbe: true }));
  };
}

/** Calls `done` once the response has been written out, or its connection is gone. */
function whenResponseDone(ctx: Context, done: () => void): void {
  const { res, req } = ctx;
  if (res.writableFinished || res.destroyed || req.socket.destroyed) return done();
  res.once('close', done);
}

/**
 * What happens when no route answered: 405 (with Allow) when the path exists under another
 * method, 501 for methods the router doesn't know, otherwise 404, all with the standard body.
 */
export function fallbacks(router: Router): Middleware {
  const allowed = router.allowedMethods() as Middleware;
  return async (ctx) => {
    await allowed(ctx, async () => {});
    if (ctx.status === 405) {
      // allowedMethods() has set the Allow header on this answer already.
      throw new AppError(
        'method_not_allowed',
        `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow')}.`,
      );
    }
    if (ctx.status === 501) throw new AppError('not_implemented', `The HTTP method ${ctx.method} is not supported.`);
    if (ctx.method === 'OPTIONS' && ctx.status === 200) return; // plain OPTIONS: Allow is set
    throw new AppError('not_found', `No route for ${ctx.method} ${ctx.path}. See /openapi.json.`);
  };
}
