import { EXAMPLE_INVOICE } from '../../../src/invoice/example.js';
import type { InvoiceInput } from '../../../src/invoice/schema.js';

/**
 * Markup and URLs that would make a browser fetch something (from a loopback canary at `origin`,
 * the cloud metadata address, a file) if user text were ever interpreted instead of printed.
 */
export function ssrfProbes(origin: string): string[] {
  const { port } = new URL(origin);
  return [
    `<img src=${origin}/img>`,
    `<img srcset="${origin}/srcset 1x">`,
    `<link rel=stylesheet href=${origin}/link>`,
    `<style>@import "${origin}/import";</style>`,
    `<div style="background:url(${origin}/url)">u</div>`,
    `<style>@font-face{font-family:p;src:url(${origin}/font)}b{font-family:p}</style><b>f</b>`,
    `<iframe src=${origin}/iframe></iframe>`,
    `<object data=${origin}/object></object>`,
    `<embed src=${origin}/embed>`,
    `<svg><image href=${origin}/svg /></svg>`,
    `<link rel=prefetch href=${origin}/prefetch>`,
    `<link rel=preconnect href=${origin}>`,
    `<meta http-equiv=refresh content="0;url=${origin}/refresh">`,
    `<iframe src=file:///etc/passwd></iframe>`,
    `<object data=FILE:///etc/passwd></object>`,
    `<img src=http://169.254.169.254/latest/meta-data/>`,
    `<img src=http://[::ffff:127.0.0.1]:${port}/v4mapped>`,
    `<img src=http://[::1]:${port}/v6>`,
    `<IMG SRC=HTTP://127.0.0.1:${port}/upper>`,
    `<img src=//127.0.0.1:${port}/scheme-relative>`,
    `<img src=http://localhost:${port}/localhost>`,
    `<img src=http://2130706433:${port}/decimal>`,
    `<script src=${origin}/script></script>`,
    `<base href=${origin}/base/><img src=rel>`,
    `<video poster=${origin}/poster></video>`,
    `<iframe srcdoc="<img src=${origin}/srcdoc>"></iframe>`,
    `url(${origin}/bare) @import '${origin}/bare2'`,
    `&lt;img src=${origin}/entity&gt;`,
    `javascript:fetch('${origin}/js')`,
  ];
}

/** Every free-text field of an invoice with its longest length (src/invoice/schema.ts LIMITS). */
export const TEXT_FIELDS = [
  { name: 'seller.name', max: 120 },
  { name: 'seller.address', max: 400 },
  { name: 'seller.phone', max: 40 },
  { name: 'seller.tax_id', max: 60 },
  { name: 'buyer.name', max: 120 },
  { name: 'buyer.address', max: 400 },
  { name: 'buyer.phone', max: 40 },
  { name: 'buyer.tax_id', max: 60 },
  { name: 'invoice_number', max: 64 },
  { name: 'notes', max: 2000 },
  { name: 'payment_instructions', max: 1000 },
  { name: 'line_items[].description', max: 300 },
] as const;

/**
 * Round `round` of probes: each field holds as many probes as fit, starting at a different probe
 * per field and round, so that rounds 0..probes.length-1 put every probe that fits a field into
 * it. Line items hold one probe each (all of them). Returns the invoice and which probe went where.
 */
export function probeInvoice(probes: string[], round: number): { invoice: InvoiceInput; placed: Set<string> } {
  const placed = new Set<string>();
  const fill = (field: string, max: number, offset: number) => {
    let text = '';
    for (let i = 0; i < probes.length; i++) {
      const index = (offset + i) % probes.length;
      const probe = probes[index]!;
      const next = text ? `${text} ${probe}` : probe;
      if (next.length > max) continue;
      text = next;
      placed.add(`${index}@${field}`);
    }
    return text || 'x';
  };
  const field = (name: string, offset: number) =>
    fill(name, TEXT_FIELDS.find((f) => f.name === name)!.max, round + offset);
  const invoice: InvoiceInput = {
    ...EXAMPLE_INVOICE,
    seller: {
      ...EXAMPLE_INVOICE.seller,
      name: field('seller.name', 0),
      address: field('seller.address', 1),
      phone: field('seller.phone', 2),
      tax_id: field('seller.tax_id', 3),
    },
    buyer: {
      ...EXAMPLE_INVOICE.buyer,
      name: field('buyer.name', 4),
      address: field('buyer.address', 5),
      phone: field('buyer.phone', 6),
      tax_id: field('buyer.tax_id', 7),
    },
    invoice_number: field('invoice_number', 8),
    notes: field('notes', 9),
    payment_instructions: field('payment_instructions', 10),
    line_items: probes.map((_, i) => {
      const index = (i + round) % probes.length;
      placed.add(`${index}@line_items[].description`);
      return { description: probes[index]!, quantity: 1, unit_price: 1 };
    }),
    discount: 0,
  };
  return { invoice, placed };
}
