import { AppError } from '../errors.js';
import type { PricedResource } from '../payment/offer.js';
import { decodePayment } from '../payment/paymentPayload.js';
import { isPaid, operationContextAt, type Answer, type PricedOperation } from './operation.js';
import type { OperationJob, OperationJobResult } from './operationJobs.js';
import type { PaidCall, PaidCallHooks, PaidOutcome, PaidWork } from './paidCall.js';

/** How a call ends; each transport (HTTP, MCP) writes it its own way. */
export type CallOutcome = PaidOutcome;

/**
 * A payment as a transport hands it over: the payload object itself (MCP's `_meta["x402/payment"]`),
 * or a reader that decodes it from the transport's encoding (HTTP's base64 PAYMENT-SIGNATURE,
 * http/paymentSignature.ts), called once, after the body was validated, so that a malformed
 * header never takes precedence over the body's errors.
 */
type PaymentInput = { payload: unknown } | { read(): unknown };

/** What a transport read, in transport-free terms. */
export interface OperationRequest {
  /** The body: the JSON text as read (HTTP), the arguments, already parsed (MCP), or a document row's document (HTTP). */
  body?: OperationJob['body'];
  /** The payment as the transport carries it, decoded once here after the body was validated. */
  payment?: PaymentInput | undefined;
  /**
   * A bare request to a paid operation, without body or payment: it only asks the price (crawlers
   * probe that way), so it gets the challenge without its body being read.
   */
  priceProbe?: boolean;
  /** The path's parameters (operation paths such as /v1/templates/{id}). */
  params?: Readonly<Record<string, string>>;
  /** A free operation's work stops when the client is gone (MCP's cancellation). */
  signal?: AbortSignal;
  hooks?: PaidCallHooks;
}

export interface CallDependencies {
  /** Runs an operation job (operationJobs.ts) on the compute pool; `high` for a paid operation's body. */
  runJob(job: OperationJob, priority: 'high' | 'unpaid' | 'normal'): Promise<OperationJobResult>;
  /** The paid call (paidCall.ts) when payments are configured. */
  paidCall?: PaidCall | undefined;
  /** The offer's resource of a paid operation (built by the HTTP layer, which knows the discovery shapes). */
  resourceOf(operation: PricedOperation): PricedResource;
  now(): Date;
  /** The server settings format writers declare (OperationContext.settings): each call carries them to the pool. */
  settings?: Readonly<Record<string, string | undefined>> | undefined;
}

const NEVER_ABORTED = new AbortController().signal;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The one call of an operation, free of any transport:
 *
 *   parse + validate on the compute pool (every JSON operation, free and paid; a free computed one
 *   is computed there too) ─► resolve what the input names (request.resolve; main thread)
 *                          ─► free: the work's answer (a computed one back on the pool)
 *                          ─► paid: decode the payment ─► check ─► admit ─► verify ∥ work ─► settle
 *
 * Nothing about payment happens before the body is valid and what it names is found, so invalid
 * input is never charged and
 * never reaches a facilitator or a payer's budget. Errors are thrown as AppErrors; everything else
 * is the returned outcome.
 */
export function operationCaller(deps: CallDependencies) {
  /** Whether a bare request to this operation is a price probe (a paid operation, payments configured). */
  const answersPriceProbe = (operation: PricedOperation): boolean => isPaid(operation) && deps.paidCall !== undefined;

  async function call(operation: PricedOperation, request: OperationRequest): Promise<CallOutcome> {
    const paid = isPaid(operation);
    if (request.priceProbe && !request.payment && answersPriceProbe(operation))
      return payFor(operation, request, undefined, '', probeHasNoWork);
    const context = operationContextAt(deps.now(), deps.settings);
    let input: unknown;
    let fingerprint = '';
    if (operation.request) {
      const compute = !paid && operation.compute !== undefined;
      // Without payment or sign-in, a paid call's answer is its 402: only the price comes back.
      const unpaid = paid && deps.paidCall !== undefined && !request.payment && !request.hooks?.signIn;
      // A paid operation's body goes ahead of the free ones: an x402 client's first, unpaid request
      // (it fetches the 402) is on a payer's path too. But an unpaid body is anyone's to send, so it
      // runs below the event loop's priority (computePool.ts LANES), a paid one at it. All queues are bounded.
      const priority = unpaid ? 'unpaid' : paid ? 'high' : 'normal';
      const parsed = await deps.runJob(
        {
          operationId: operation.operationId,
          body: request.body ?? { value: {} },
          context,
          compute,
          ...(unpaid ? { unpaid: { configuredUsd: operation.priceUsd } } : {}),
        },
        priority,
      );
      if (parsed.kind === 'computed') return answeredJson(parsed.json);
      if (parsed.kind === 'unpaid') {
        const offered = deps.resourceOf(operation);
        const resource = operation.priceOf ? { ...offered, priceUsd: parsed.priceUsd } : offered;
        return deps.paidCall!(resource, undefined, parsed.fingerprint, unpaidHasNoWork, request.hooks);
      }
      if (parsed.kind !== 'parsed') throw new Error(`operation ${operation.operationId} worked before payment`);
      ({ input, fingerprint } = parsed);
      // What the input names (a stored theme) is looked up here, on the main thread, before
      // anything about payment: an unknown name is refused (InputRejected), never charged.
      const { resolve } = operation.request;
      if (resolve?.needed(input)) {
        input = await resolve.resolve(input);
        if (compute) {
          const computed = await deps.runJob(
            { operationId: operation.operationId, body: { resolved: input }, context, compute },
            priority,
          );
          if (computed.kind === 'computed') return answeredJson(computed.json);
          throw new Error(`operation ${operation.operationId} computed nothing`);
        }
      }
    }
    const pooled = paid && operation.pooled?.wanted(input) === true && !operation.request?.resolve?.needed(input);
    const work: PaidWork = (signal, marks) => {
      const specimen = marks?.specimen === true;
      if (pooled) return pooledWork(operation, request, context, signal, specimen);
      if (operation.handle)
        return operation.handle(input, { signal, specimen, ...(request.params ? { params: request.params } : {}) });
      if (operation.compute) return { body: operation.compute(input, context) };
      throw new Error(`operation ${operation.operationId} has no work`);
    };
    if (!paid) return { kind: 'answered', answer: await work(request.signal ?? NEVER_ABORTED) };
    return payFor(operation, request, input, fingerprint, work);
  }

  function payFor(
    operation: PricedOperation,
    request: OperationRequest,
    input: unknown,
    fingerprint: string,
    work: PaidWork,
  ) {
    // A paid operation on an app built without payments (some tests) must never hand out free work.
    if (!deps.paidCall)
      throw new AppError(
        'payment_unavailable',
        'Payments are not configured on this instance, so this paid operation is unavailable.',
      );
    const carried = request.payment;
    const payment = carried ? decodePayment('read' in carried ? carried.read() : carried.payload) : undefined;
    return deps.paidCall(resourceFor(operation, input), payment, fingerprint, work, request.hooks);
  }

  /**
   * Paid work that is pure CPU, on the compute pool (operation.ts `pooled`): the body goes once more
   * to a worker, which parses it again and does the work there; a refused verify sets the shared
   * cancel flag, which the work reads between documents.
   */
  async function pooledWork(
    operation: PricedOperation,
    request: OperationRequest,
    context: OperationJob['context'],
    signal: AbortSignal,
    specimen: boolean,
  ): Promise<Answer> {
    const cancel = new SharedArrayBuffer(4);
    const flag = new Int32Array(cancel);
    const onAbort = () => Atomics.store(flag, 0, 1);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const job = { operationId: operation.operationId, body: request.body ?? { value: {} }, context, compute: false };
      const done = await deps.runJob({ ...job, pooledWork: { cancel, specimen } }, 'high');
      if (done.kind !== 'worked') throw new Error(`operation ${operation.operationId} did no pooled work`);
      const { contentType, headers, body } = done.answer;
      return { contentType, headers, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** The offer's resource of this call: a row priced by its input (operation.ts `priceOf`) is quoted for this input. */
  function resourceFor(operation: PricedOperation, input: unknown): PricedResource {
    const resource = deps.resourceOf(operation);
    return operation.priceOf ? { ...resource, priceUsd: operation.priceOf(input, operation.priceUsd) } : resource;
  }

  return { call, answersPriceProbe };
}

const answeredJson = (json: Uint8Array): CallOutcome => ({
  kind: 'answered',
  answer: { contentType: JSON_TYPE, body: Buffer.from(json.buffer, json.byteOffset, json.byteLength) },
});

const probeHasNoWork = (): never => {
  throw new Error('the work of a price probe never runs');
};

const unpaidHasNoWork = (): never => {
  throw new Error('the work of a call without payment or sign-in never runs');
};

export type OperationCaller = ReturnType<typeof operationCaller>;
