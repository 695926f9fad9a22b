import { isPaid, type PricedOperation } from '../operations/operation.js';
import type { PaymentProcessor } from '../payment/paymentProcessor.js';
import { pricedResource } from './offerResource.js';
import {
  headerPaymentRequired,
  MAX_HEADER_ERROR_CHARS,
  PAYMENT_REQUIRED,
  paymentRequiredHeader,
} from './paymentEncoding.js';

/**
 * A 402's whole response header block, status line included, must fit one 4 KB page: nginx's
 * default `proxy_buffer_size` (and ingress-nginx's, in front of deploy/) answers 502 instead of an
 * upstream header block any larger, and then no client can pay.
 */
export const HEADER_BLOCK_BUDGET = 4096;

/**
 * What a 402's other headers may take: status line, Content-Type/-Length, Cache-Control, Date,
 * Connection, Keep-Alive, CORS, RateLimit and X-Request-Id (at most 64 characters, requestLog.ts)
 * measure 472 bytes (docs/paying-and-x402.md); the rest is headroom for a header added later.
 */
const OTHER_HEADERS_ALLOWANCE = 1024;

/** The most a PAYMENT-REQUIRED line (`name: value\r\n`) may take. */
const PAYMENT_REQUIRED_LINE_BUDGET = HEADER_BLOCK_BUDGET - OTHER_HEADERS_ALLOWANCE;

/** An amount with more digits than any price this service asks (a million USD, in atomic USDC). */
const WIDEST_PRICE_USD = '999999.999999';

interface ChallengeSize {
  path: string;
  /** Bytes of the PAYMENT-REQUIRED line at the widest amount and the longest reason code. */
  lineBytes: number;
  /** How often the resource URL appears in it (the resource, and each signed offer). */
  urlOccurrences: number;
}

/** The widest PAYMENT-REQUIRED line each paid operation can send with this configuration. */
async function challengeSizes(
  routes: readonly PricedOperation[],
  processor: Pick<PaymentProcessor, 'challenge'>,
): Promise<ChallengeSize[]> {
  const sizes: ChallengeSize[] = [];
  for (const route of routes.filter(isPaid)) {
    const resource = { ...pricedResource(route), priceUsd: WIDEST_PRICE_USD };
    const paymentRequired = await processor.challenge(resource, 'x'.repeat(MAX_HEADER_ERROR_CHARS));
    const lineBytes = Buffer.byteLength(`${PAYMENT_REQUIRED}: ${paymentRequiredHeader(paymentRequired)}\r\n`);
    const urlOccurrences =
      JSON.stringify(headerPaymentRequired(paymentRequired)).split(paymentRequired.resource.url).length - 1;
    sizes.push({ path: route.path, lineBytes, urlOccurrences });
  }
  return sizes;
}

/**
 * Why this configuration's 402 would not fit, naming the variable to change: empty when every paid
 * operation's widest challenge fits. The header leaves out the signed offers and the discovery
 * schema (payment/compactChallenge.ts), so what still grows with configuration is the public base
 * URL (in the challenge's resource) and the number of accepts entries.
 */
export async function challengeBudgetProblems(
  routes: readonly PricedOperation[],
  processor: Pick<PaymentProcessor, 'challenge'>,
  settings: { publicBaseUrl: string },
): Promise<string[]> {
  const sizes = await challengeSizes(routes, processor);
  const widest = sizes.reduce<ChallengeSize | undefined>(
    (top, size) => (top && top.lineBytes >= size.lineBytes ? top : size),
    undefined,
  );
  if (!widest || widest.lineBytes <= PAYMENT_REQUIRED_LINE_BUDGET) return [];
  const over = widest.lineBytes - PAYMENT_REQUIRED_LINE_BUDGET;
  const fits = `the 402 of ${widest.path} would carry a PAYMENT-REQUIRED header of ${widest.lineBytes} bytes, over the ${PAYMENT_REQUIRED_LINE_BUDGET} it may take of a ${HEADER_BLOCK_BUDGET}-byte header block (a default nginx proxy answers 502 beyond it)`;
  // Base64 of JSON: each character of the URL costs 4/3 bytes per occurrence.
  const shorterBy = Math.ceil((over * 3) / 4 / Math.max(1, widest.urlOccurrences));
  const longest = settings.publicBaseUrl.length - shorterBy;
  return [
    longest >= 'https://a.io'.length
      ? `PUBLIC_BASE_URL: ${fits}; use a public base URL of at most ${longest} characters (this one has ${settings.publicBaseUrl.length})`
      : `PUBLIC_BASE_URL: ${fits}, even with a short public base URL; offer fewer accepts entries`,
  ];
}
