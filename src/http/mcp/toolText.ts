import { isPaid, type PricedOperation } from '../../operations/operation.js';

/** What a tool costs, as its description's first sentence says it. */
const costOf = (route: PricedOperation): string =>
  isPaid(route)
    ? `costs ${route.priceUsd} USD per ${route.priceOf ? 'invoice in the call' : 'call'} in USDC (x402, see the server instructions)`
    : 'free';

/** "The invoice PDF (may span several pages)." as "the invoice PDF (may span several pages)". */
const returned = (description: string) =>
  `${description.charAt(0).toLowerCase()}${description.slice(1)}`.replace(/\.\s*$/, '');

/** The row's summary without its "(free)" / "(paid, x402)": the price is said once, in the first sentence. */
const titleOf = (route: PricedOperation) => route.summary.replace(/\s*\((free|paid[^)]*)\)\s*$/, '');

/**
 * Descriptions beyond this are cut at a sentence: the full text is in the HTTP API's OpenAPI
 * document. 240 (320 until 20 tools) keeps tools/list within its target with every required field
 * and profile enum shown (mcpTools.ts).
 */
const LONGEST_DETAIL = 240;

/** The detail of a row's description within `max` characters, cut after a whole sentence. */
function detailWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  // A sentence ends at . ! or ? before white space: "3.0", "crd.gov.pl" and "e.g. " stay inside one.
  const sentences = text.split(/(?<=(?<!\be\.g|\bi\.e)[.!?])\s+/);
  let detail = '';
  for (const sentence of sentences) {
    const longer = detail ? `${detail} ${sentence}` : sentence;
    if (longer.length > max) break;
    detail = longer;
  }
  // A first sentence longer than `max` is cut at a word, marked with an ellipsis.
  const cut = detail || `${text.slice(0, text.lastIndexOf(' ', max - 1)).replace(/[,;:(]$/, '')}…`;
  return `${cut} (More in /openapi.json.)`;
}

/**
 * A tool's description: its first sentence says what it returns and what it costs, then the row's
 * own description (cut to a paragraph), so an agent can choose a tool from the list alone.
 */
export function toolDescription(route: PricedOperation, maxDetail = LONGEST_DETAIL): string {
  const first = `${titleOf(route)}: returns ${returned(route.response.description)}; ${costOf(route)}.`;
  return `${first} ${detailWithin(route.description, maxDetail)}`;
}

export const toolTitle = titleOf;

/**
 * The server's `instructions` (MCP initialize): how to pay, said once instead of in every tool,
 * and where the summarised parts of the schemas are.
 */
export const SERVER_INSTRUCTIONS = [
  'Invoice PDFs and EN 16931 e-invoices from invoice JSON. Free tools answer at once; a paid tool names its price in USD in the first sentence of its description.',
  'To pay (x402 v2 MCP transport): call the paid tool without payment; the isError result\'s structuredContent is the x402 PaymentRequired (accepts: USDC amount, network, payTo). Sign one of the accepts with an x402 client (an EIP-3009 authorization) and call again with the same arguments and the PaymentPayload in _meta["x402/payment"]; the file comes back with the settlement receipt in _meta["x402/payment-response"].',
  'Invalid input is refused before any payment, never charged: an isError result whose structuredContent is { error: { code, message, issues: [{ path, code, message }] } }, each issue naming its path (line_items[0].quantity); retry_after_seconds says when to retry a busy or rate-limited call. Check an invoice with the free v1_invoice_validate or v1_e_invoice_validate before paying.',
  "Parts of the input schemas are summarised to keep this list small (their description says so): the free field_schema tool, or the resource schema://{tool}/{field}, gives a field's full JSON Schema. The server validates the full schema either way.",
].join('\n\n');
