import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import { loadInvoiceTemplates, type InvoiceTemplates } from '../../render/templates.js';

/**
 * The preview's own watched copy of the invoice templates. It fills the HTML view, and each
 * reload (or failed reload: a broken edit keeps the last good version) is pushed to every open
 * preview page as a server-sent event, so the page re-renders without a manual reload.
 */
export interface TemplateEvents {
  templates: InvoiceTemplates;
  /** Turns the request into an event stream that lives until the client goes away or close(). */
  subscribe(ctx: Context): void;
  close(): void;
}

/**
 * The renderer (which prints the PDF and the page images) watches the same files with its own
 * watcher and reloads on the same file events after the same 100 ms pause. Announcing our reload
 * a little later lets that one finish too, so a page that asks for a new PDF at once gets the new
 * design rather than the old one.
 */
const RENDERER_SETTLE_MS = 250;
/** A comment line now and then keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 20_000;

export function watchTemplateEvents(options: { root?: string | undefined; log: (event: object) => void }): TemplateEvents {
  const streams = new Set<ServerResponse>();
  const send = (event: string, data: object) => {
    const message = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of streams) stream.write(message);
  };
  const announce = (data: object) => setTimeout(() => send('templates', data), RENDERER_SETTLE_MS).unref();

  const templates = loadInvoiceTemplates({
    watch: true,
    ...(options.root ? { root: options.root } : {}),
    log: (event) => {
      options.log(event);
      const { event: name, error } = event as { event?: string; error?: string };
      if (name === 'templates_reloaded') announce({ ok: true });
      if (name === 'templates_reload_failed') announce({ ok: false, error });
    },
  });
  const heartbeat = setInterval(() => streams.forEach((stream) => stream.write(': ping\n\n')), HEARTBEAT_MS).unref();

  return {
    templates,
    subscribe(ctx) {
      // Written straight to the socket rather than as a Koa stream body: a stream piped into the
      // response reports every closed tab as an error.
      ctx.respond = false;
      const response = ctx.res;
      ctx.req.socket.setTimeout(0);
      ctx.req.socket.setNoDelay(true);
      response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      // EventSource reconnects this soon after the server restarts.
      response.write('retry: 1000\n\n');
      streams.add(response);
      response.once('close', () => streams.delete(response));
    },
    close() {
      clearInterval(heartbeat);
      templates.close();
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
