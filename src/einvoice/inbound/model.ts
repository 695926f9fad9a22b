/** The inbound model's types live in src/invoice/inboundInvoice.ts, below einvoice/ and render/. */
export type * from '../../invoice/inboundInvoice.js';
