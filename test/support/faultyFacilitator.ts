import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fault-injecting facilitator proxy on 127.0.0.1. It sits between the service and the real
 * local facilitator and, per operation (verify, settle), either passes calls through or breaks
 * them in one of the ways a real facilitator or network breaks. Faults that say "after forwarding"
 * let the real facilitator settle on chain first, so the money moves but the service never hears
 * about it: the hard case of an unknown settlement outcome.
 */
export type Fault =
  /** Pass the call through and its answer back. */
  | 'forward'
  /** Answer 500 without forwarding (nothing happened). */
  | 'error500'
  /** Never answer, never forward (nothing happened; the service's timeout ends the call). */
  | 'hang'
  /** Cut the connection without forwarding or answering (nothing happened). */
  | 'drop'
  /** Forward, let the facilitator finish, then cut the connection (it DID happen). */
  | 'forward-then-drop'
  /** Forward, let the facilitator finish, then never answer (it DID happen). */
  | 'forward-then-hang'
  /** Forward, let the facilitator finish, then answer 500 (it DID happen). */
  | 'forward-then-500'
  /** Forward; a success comes back as `settlement_pending` with its transaction (it DID happen). */
  | 'forward-as-pending'
  /** Forward and answer, then refuse every new connection until acceptConnections() (the next call is refused). */
  | 'forward-then-refuse'
  /** Answer this JSON with 200 without forwarding (e.g. success:false, settlement_pending). */
  | { answer: unknown }
  /** Forward, and pass the answer back this much later (a slow facilitator: real settlements take seconds). */
  | { delayMs: number }
  /** Hold the call until `after` settles, then forward it (e.g. settle held until two payments verified). */
  | { after: Promise<unknown> };

export type Operation = 'verify' | 'settle';

export interface FaultyFacilitator {
  url: string;
  /** Sets the fault of one operation (both when `operation` is omitted). */
  fault(fault: Fault, operation?: Operation): void;
  /** Calls received, per operation (including broken ones). */
  calls(operation: Operation): number;
  /** Resolves when the operation has been called at least once (an event to wait on, not a poll). */
  called(operation: Operation): Promise<void>;
  /** Calls the real facilitator received, per operation. */
  forwarded(operation: Operation): number;
  /** Resolves once the real facilitator has answered `count` calls of the operation. */
  answered(operation: Operation, count: number): Promise<void>;
  /** Closes the listening socket: new connections are refused until acceptConnections(). */
  refuseConnections(): Promise<void>;
  acceptConnections(): Promise<void>;
  close(): Promise<void>;
}

const OPERATIONS: Operation[] = ['verify', 'settle'];
/** Upstream calls are bounded too: the local facilitator answers within seconds. */
const UPSTREAM_TIMEOUT_MS = 30_000;

export async function startFaultyFacilitator(upstreamUrl: string): Promise<FaultyFacilitator> {
  const faults: Record<Operation, Fault> = { verify: 'forward', settle: 'forward' };
  const received: Record<Operation, number> = { verify: 0, settle: 0 };
  const firstCall = Object.fromEntries(
    OPERATIONS.map((op) => {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      return [op, { promise, resolve }];
    }),
  ) as Record<Operation, { promise: Promise<void>; resolve: () => void }>;
  const passed: Record<Operation, number> = { verify: 0, settle: 0 };
  const answers: Record<Operation, number> = { verify: 0, settle: 0 };
  const answerWaiters: { operation: Operation; count: number; resolve: () => void }[] = [];
  const noteAnswer = (operation: Operation) => {
    answers[operation]++;
    for (const waiter of answerWaiters.filter(
      (each) => each.operation === operation && each.count <= answers[operation],
    ))
      waiter.resolve();
  };
  const hanging = new Set<ServerResponse>();
  let server: Server | undefined;
  let port = 0;

  async function forward(req: IncomingMessage, body: Buffer, operation: Operation | undefined) {
    if (operation) passed[operation]++;
    const upstream = await fetch(`${upstreamUrl}${req.url}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      ...(req.method === 'POST' ? { body: body.toString('utf8') } : {}),
      signal: AbortSignal.timeout(UPSTREAM_TIMEOUT_MS),
    });
    const answer = { status: upstream.status, text: await upstream.text() };
    if (operation) noteAnswer(operation);
    return answer;
  }

  const send = (res: ServerResponse, status: number, text: string) =>
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const operation = OPERATIONS.find((op) => req.url === `/${op}`);
    if (operation) {
      received[operation]++;
      firstCall[operation].resolve();
    }
    const fault: Fault = operation ? faults[operation] : 'forward';

    if (typeof fault === 'object' && 'answer' in fault) return send(res, 200, JSON.stringify(fault.answer));
    if (typeof fault === 'object' && 'after' in fault) {
      await fault.after;
      const answer = await forward(req, body, operation);
      return send(res, answer.status, answer.text);
    }
    if (typeof fault === 'object') {
      const answer = await forward(req, body, operation);
      await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      return send(res, answer.status, answer.text);
    }
    switch (fault) {
      case 'error500':
        return send(res, 500, JSON.stringify({ error: 'injected fault' }));
      case 'hang':
        hanging.add(res);
        return;
      case 'drop':
        req.socket.destroy();
        return;
    }
    const answer = await forward(req, body, operation);
    switch (fault) {
      case 'forward':
        return send(res, answer.status, answer.text);
      case 'forward-then-drop':
        req.socket.destroy();
        return;
      case 'forward-then-hang':
        hanging.add(res);
        return;
      case 'forward-then-500':
        return send(res, 500, JSON.stringify({ error: 'injected fault after forwarding' }));
      case 'forward-then-refuse':
        res.once('finish', () => void stop());
        return send(res, answer.status, answer.text);
      case 'forward-as-pending': {
        const settled = JSON.parse(answer.text) as { success?: boolean; transaction?: string };
        if (!settled.success) return send(res, answer.status, answer.text);
        return send(
          res,
          200,
          JSON.stringify({
            ...settled,
            success: false,
            errorReason: 'settlement_pending',
            errorMessage: 'injected: receipt not confirmed yet',
          }),
        );
      }
    }
  }

  async function listen() {
    const next = createServer((req, res) => {
      handle(req, res).catch(() => {
        if (!res.headersSent) send(res, 502, JSON.stringify({ error: 'proxy failed' }));
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    server = next;
  }

  async function stop() {
    const current = server;
    server = undefined;
    if (!current) return;
    for (const res of hanging) res.destroy();
    hanging.clear();
    current.closeAllConnections();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  }

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    fault(fault, operation) {
      for (const op of operation ? [operation] : OPERATIONS) faults[op] = fault;
    },
    calls: (operation) => received[operation],
    called: (operation) => firstCall[operation].promise,
    forwarded: (operation) => passed[operation],
    answered: (operation, count) =>
      count <= answers[operation]
        ? Promise.resolve()
        : new Promise<void>((resolve) => answerWaiters.push({ operation, count, resolve })),
    refuseConnections: stop,
    async acceptConnections() {
      if (!server) await listen();
    },
    close: stop,
  };
}
