import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { TemplateReload } from '../../render/templates.js';

/**
 * Pushes every reload of the renderer's templates (or failed reload: a broken edit keeps the last
 * good version) to every open preview page as a server-sent event, so the page re-renders without
 * a manual reload. The templates are the renderer's own, so the event comes after the reload that
 * the next HTML, PDF or page image will use.
 */
export interface TemplateEvents {
  /** Turns the request into an event stream that lives until the client goes away or close(). */
  subscribe(ctx: Context): void;
  close(): void;
}

/** A comment line now and then keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 20_000;

export function templateEvents(onReload: (listener: (outcome: TemplateReload) => void) => () => void): TemplateEvents {
  const streams = new Set<ServerResponse>();
  const stopListening = onReload((outcome) => {
    const message = `event: templates\ndata: ${JSON.stringify(outcome)}\n\n`;
    for (const stream of streams) stream.write(message);
  });
  const heartbeat = setInterval(() => streams.forEach((stream) => stream.write(': ping\n\n')), HEARTBEAT_MS).unref();

  return {
    subscribe(ctx) {
      // Written straight to the socket rather than as a Koa stream body: a stream piped into the
      // response reports every closed tab as an error.
      ctx.respond = false;
      const response = ctx.res;
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);
      response.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      // EventSource reconnects this soon after the server restarts.
      response.write('retry: 1000\n\n');
      streams.add(response);
      response.once('close', () => streams.delete(response));
    },
    close() {
      clearInterval(heartbeat);
      stopListening();
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
