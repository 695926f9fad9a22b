import { availableParallelism } from 'node:os';
import * as v from 'valibot';
import { MAX_BATCH_ITEMS } from './batch/batchRequest.js';
import { OWN_SYNTAX_FORMATS, operationIdOf } from './einvoice/formats/registry.js';
import { toIssues } from './invoice/issues.js';
import { atomicToUsd, exceedsUsd, STOCK_CLIENT_MAX_PAYMENT_USD, timesUsd, usdToAtomic } from './payment/price.js';
import { publicTestAccountIndex } from './payment/publicTestAccounts.js';
import { receiptSignerAddress } from './payment/receiptKey.js';
import { USDC_ON_BASE } from './payment/usdc.js';
import { PAPER_SETTINGS } from './render/paper.js';
import { RENDER_DEFAULTS } from './render/renderDefaults.js';

/**
 * Configuration, read once from the environment by main.ts. Every variable has a default that
 * serves (local payment mode on loopback), and a bad value stops start-up with one message that
 * lists every problem. CONFIG_VARIABLES below describes each variable; `npm run docs` writes
 * docs/reference/configuration.md from it and from the defaults of EnvSchema.
 */

const integerVar = (min: number, max: number, fallback: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.regex(/^\d+$/, `must be a whole number between ${min} and ${max}`),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const urlVar = (protocols: string[]) =>
  v.pipe(
    v.string(),
    v.check(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be an absolute ${protocols.join(' or ')} URL`,
    ),
  );

const addressVar = v.pipe(v.string(), v.regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address'));

// operationId=USD pairs; USDC has 6 decimals, so prices have at most 6.
const PRICE_LIST = /^\s*[a-z0-9_]+\s*=\s*\d+(\.\d{1,6})?\s*(,\s*[a-z0-9_]+\s*=\s*\d+(\.\d{1,6})?\s*)*$/;
/** Operations not named in PRICES keep these prices; every other operation is free. */
const DEFAULT_PRICES: Readonly<Record<string, string>> = {
  v1_invoice_pdf: '0.02',
  v1_e_invoice_factur_x_pdf: '0.02',
  v1_e_invoice_cii_xml: '0.01',
  v1_e_invoice_ubl_xml: '0.01',
  // The route of every syntax of a format's own (src/einvoice/formats/registry.ts), priced like the XML above.
  ...Object.fromEntries(OWN_SYNTAX_FORMATS.map((format) => [operationIdOf(format.writer.route), '0.01'])),
  // Per invoice in the batch: a batch of n costs n times this (src/operations/batchOperations.ts).
  v1_invoices_zip: '0.02',
  // Inbound e-invoices (src/operations/inboundOperations.ts): a render like /v1/invoice.pdf.
  v1_e_invoice_render_pdf: '0.02',
};
const parsePriceList = (text: string): Record<string, string> => ({
  ...DEFAULT_PRICES,
  ...Object.fromEntries(text.split(',').map((pair) => pair.split('=').map((part) => part.trim()) as [string, string])),
});

const EnvSchema = v.object({
  NODE_ENV: v.optional(
    v.picklist(['development', 'production', 'test'], 'must be development, production or test'),
    'development',
  ),
  HOST: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty')), '127.0.0.1'),
  PORT: integerVar(0, 65535, 8080),
  PUBLIC_BASE_URL: v.optional(urlVar(['http:', 'https:'])),
  LOG_LEVEL: v.optional(
    v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'must be a pino level'),
    'info',
  ),
  BODY_LIMIT_BYTES: integerVar(1024, 16 * 1024 * 1024, 1024 * 1024),
  FONT_MAX_BYTES: integerVar(1024, 16 * 1024 * 1024, 2 * 1024 * 1024),
  SHUTDOWN_DEADLINE_MS: integerVar(0, 600_000, 30_000),
  // Rate limits (token buckets; a burst of 0 turns one off) and whom to believe about addresses.
  RATE_LIMIT_CLIENT_BURST: integerVar(0, 1_000_000, 200),
  RATE_LIMIT_CLIENT_PER_SECOND: integerVar(1, 1_000_000, 50),
  RATE_LIMIT_PAYER_BURST: integerVar(0, 1_000_000, 50),
  RATE_LIMIT_PAYER_PER_SECOND: integerVar(1, 1_000_000, 10),
  TRUST_PROXY_HOPS: integerVar(0, 10, 0),
  // Worker threads (at the lowest CPU priority) that parse, validate and compute the free routes
  // (validate and the four helpers) off the event loop; 0 computes them on it. Default: one per
  // core beyond the first, 1 to 4.
  COMPUTE_THREADS: integerVar(0, 16, Math.min(4, Math.max(1, availableParallelism() - 1))),
  // Rendering
  CHROMIUM_PATH: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'))),
  CHROMIUM_SANDBOX: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  RENDER_POOL_SIZE: integerVar(1, 16, RENDER_DEFAULTS.poolSize),
  RENDER_QUEUE_LIMIT: integerVar(0, 1000, RENDER_DEFAULTS.queueLimit),
  RENDER_TIMEOUT_MS: integerVar(100, 120_000, RENDER_DEFAULTS.renderTimeoutMs),
  BROWSER_MAX_RENDERS: integerVar(1, 100_000, RENDER_DEFAULTS.maxRendersPerBrowser),
  PAPER_SIZE: v.optional(v.picklist(PAPER_SETTINGS, 'must be auto, A4 or Letter'), RENDER_DEFAULTS.paperSize),
  KSEF_QR_ENVIRONMENT: v.optional(
    v.picklist(['production', 'test', 'demo'], 'must be production, test or demo'),
    'production',
  ),
  // Spain's VERI*FACTU records name this service as their billing software (SistemaInformatico).
  VERIFACTU_PRODUCER_NAME: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(120, 'must be at most 120 characters')),
    'INVOICE PDF X402',
  ),
  VERIFACTU_PRODUCER_NIF: v.optional(
    v.pipe(v.string(), v.regex(/^[0-9A-Z]{9}$/, 'must be a Spanish NIF: 9 capitals or digits')),
    '00000000T',
  ),
  VERIFACTU_INSTALLATION: v.optional(
    v.pipe(v.string(), v.minLength(1), v.maxLength(100, 'must be at most 100 characters')),
    '1',
  ),
  // Development preview (GET /preview); its default depends on NODE_ENV, see loadConfig.
  PREVIEW: v.optional(v.picklist(['on', 'off'], 'must be on or off')),
  // Payment
  FACILITATOR_URL: v.optional(urlVar(['http:', 'https:'])),
  FACILITATOR_AUTH_HEADER: v.optional(v.string()),
  FACILITATOR_TIMEOUT_MS: integerVar(100, 120_000, 10_000),
  PAY_TO: v.optional(addressVar),
  // FACILITATOR_URL is a local payment network on a test chain (the compose file's, `npm run
  // topology`'s): the one case where PAY_TO may be a public test account.
  LOCAL_TEST_CHAIN: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'off'),
  X402_NETWORK: v.optional(
    v.pipe(v.string(), v.regex(/^eip155:\d+$/, 'must be a CAIP-2 EVM network like eip155:8453')),
    'eip155:8453',
  ),
  USDC_ASSET: v.optional(addressVar, USDC_ON_BASE),
  USDC_EIP712_NAME: v.optional(v.string(), 'USD Coin'),
  USDC_EIP712_VERSION: v.optional(v.string(), '2'),
  PRICES: v.pipe(
    v.optional(
      v.string(),
      Object.entries(DEFAULT_PRICES)
        .map(([id, usd]) => `${id}=${usd}`)
        .join(','),
    ),
    v.regex(PRICE_LIST, 'must be a comma-separated list of operationId=USD, e.g. v1_invoice_pdf=0.02,v1_late_fee=0.01'),
    v.transform(parsePriceList),
  ),
  MAX_TIMEOUT_SECONDS: integerVar(30, 3600, 300),
  REDIS_URL: v.optional(urlVar(['redis:', 'rediss:'])),
  LOCAL_CHAIN_PORT: integerVar(0, 65535, 8545),
  LOCAL_FACILITATOR_PORT: integerVar(0, 65535, 8546),
  // Signed offers and receipts (x402 offer-receipt extension, src/payment/receipts.ts): the
  // secp256k1 key that signs them. Unset: a dev key in local payment mode, off otherwise. Checked
  // in loadConfig, never echoed.
  RECEIPT_SIGNING_KEY: v.optional(v.string()),
  // Sign-in-with-x (src/operations/signInWithXCall.ts) and the trial network (src/payment/trial/).
  SIGN_IN_WITH_X: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'on'),
  SIGN_IN_WITH_X_DAYS: integerVar(1, 3650, 30),
  TRIAL_NETWORK: v.optional(v.picklist(['on', 'off'], 'must be on or off'), 'off'),
  TRIAL_FACILITATOR_URL: v.optional(urlVar(['http:', 'https:'])),
  TRIAL_PAY_TO: v.optional(addressVar),
  TRIAL_USDC_ASSET: v.optional(addressVar),
  LOCAL_TRIAL_CHAIN_PORT: integerVar(0, 65535, 8547),
});

export type Env = v.InferOutput<typeof EnvSchema>;

/** What the configuration page says about a variable; `shownDefault` when the default is computed. */
export interface VariableDoc {
  description: string;
  shownDefault?: string;
}

/**
 * One entry per variable of EnvSchema (type-checking fails when one is missing): the reference
 * page docs/reference/configuration.md is generated from this table and the schema's defaults.
 */
export const CONFIG_VARIABLES: Record<keyof Env, VariableDoc> = {
  NODE_ENV: { description: '`development` (templates reloaded on change, the preview on), `production` or `test`.' },
  HOST: { description: 'Address to listen on (`0.0.0.0` in a container).' },
  PORT: { description: 'Port to listen on (`0`: any free port).' },
  PUBLIC_BASE_URL: {
    description: 'Absolute base of every URL the service publishes (discovery documents, the x402 `resource.url`).',
    shownDefault: '`http://HOST:PORT`',
  },
  LOG_LEVEL: { description: 'pino level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.' },
  BODY_LIMIT_BYTES: {
    description: 'Largest request body, after decoding its `Content-Encoding` (413 `payload_too_large` beyond).',
  },
  FONT_MAX_BYTES: {
    description:
      'Largest font file `PUT /v1/fonts` stores (400 `font_invalid`, issue `too_large`, beyond). Every render in a stored font carries the whole file to Chromium, which embeds only the glyphs used.',
  },
  SHUTDOWN_DEADLINE_MS: {
    description: 'How long a stop signal (SIGTERM, SIGINT) lets requests in flight finish, settlement included.',
  },
  RATE_LIMIT_CLIENT_BURST: {
    description:
      'Token bucket per client address on every route but `/healthz`, `/readyz`, `/metrics`: requests allowed at once; `0` turns the limit off.',
  },
  RATE_LIMIT_CLIENT_PER_SECOND: { description: 'Refill rate of the per-client bucket, requests a second.' },
  RATE_LIMIT_PAYER_BURST: {
    description:
      'Token bucket per payer (`authorization.from` of a `PAYMENT-SIGNATURE` that decodes, or of a paid MCP tool call: one bucket for both) on paid routes; `0` turns it off.',
  },
  RATE_LIMIT_PAYER_PER_SECOND: { description: 'Refill rate of the per-payer bucket, requests a second.' },
  TRUST_PROXY_HOPS: {
    description:
      'Proxies in front that append to `X-Forwarded-For`: the client address is that many entries from its right; `0` uses the socket address.',
  },
  COMPUTE_THREADS: {
    description:
      'Worker threads, at the lowest CPU priority, that parse, validate and compute the free routes (validate and the helpers) off the event loop; `0` computes them on it.',
    shownDefault: 'one per core beyond the first, 1 to 4',
  },
  CHROMIUM_PATH: {
    description: 'Chromium binary that prints the PDFs (a binary, not a wrapper script that does not `exec`).',
    shownDefault: 'the first found of `/usr/lib/chromium/chromium-headless-shell`, `/usr/bin/chromium`, …',
  },
  CHROMIUM_SANDBOX: { description: '`off` runs Chromium with `--no-sandbox` (containers); as root it is always off.' },
  RENDER_POOL_SIZE: { description: 'Warm browser pages, i.e. concurrent renders.' },
  RENDER_QUEUE_LIMIT: {
    description: 'Renders that may wait for a page; beyond it 503 `renderer_busy` with `Retry-After`.',
  },
  RENDER_TIMEOUT_MS: { description: 'Deadline of one render (502 `render_timeout`; the page is replaced).' },
  BROWSER_MAX_RENDERS: {
    description: 'The browser is replaced (its successor launched first) after this many renders.',
  },
  PAPER_SIZE: { description: '`auto` (Letter for USD, CAD and MXN, A4 otherwise), `A4` or `Letter`.' },
  KSEF_QR_ENVIRONMENT: {
    description:
      'The KSeF environment of the verification QR link on a printed FA(3) when the request names none (`ksef_environment`): `production` (qr.ksef.mf.gov.pl), `test` (qr-test…) or `demo` (qr-demo…).',
  },
  VERIFACTU_PRODUCER_NAME: {
    description:
      "NombreRazon of SistemaInformatico in Spain's VERI*FACTU records: the operator of this service, the billing software's producer (docs/e-invoices-spain.md).",
  },
  VERIFACTU_PRODUCER_NIF: {
    description:
      'The producer’s NIF in SistemaInformatico; the default `00000000T` is a placeholder to replace in production.',
  },
  VERIFACTU_INSTALLATION: {
    description: 'NumeroInstalacion in SistemaInformatico: distinct for each installation of the service.',
  },
  PREVIEW: {
    description:
      'The development preview at `/preview`, with free PDF downloads; `on` is refused unless `NODE_ENV=development`.',
    shownDefault: '`on` with `NODE_ENV=development`, else `off`',
  },
  FACILITATOR_URL: {
    description:
      'x402 facilitator base URL (`/verify`, `/settle`, `/supported`). Unset: local payment mode (a local test chain and facilitator on loopback).',
  },
  FACILITATOR_AUTH_HEADER: {
    description: 'Value of the `Authorization` header sent to the facilitator (never logged).',
  },
  FACILITATOR_TIMEOUT_MS: { description: 'Deadline of each facilitator call.' },
  PAY_TO: {
    description:
      'Wallet that receives payments; required with `FACILITATOR_URL`. A public anvil/Hardhat test account is refused unless `LOCAL_TEST_CHAIN=on`.',
    shownDefault: 'local payment mode: dev account 0',
  },
  LOCAL_TEST_CHAIN: {
    description:
      '`on` says `FACILITATOR_URL` is a local payment network on a test chain: the one case where `PAY_TO` may be a public test account.',
  },
  X402_NETWORK: { description: 'CAIP-2 network of the offer.' },
  USDC_ASSET: { description: 'USDC contract on that network.' },
  USDC_EIP712_NAME: { description: "The token's EIP-712 domain name (`USDC` on Base Sepolia)." },
  USDC_EIP712_VERSION: { description: "The token's EIP-712 domain version." },
  PRICES: {
    description: '`operationId=USD` pairs, comma-separated, merged over the default prices; `=0` makes a route free.',
  },
  MAX_TIMEOUT_SECONDS: { description: 'Validity window asked of payment authorizations (`maxTimeoutSeconds`).' },
  REDIS_URL: {
    description: '`redis://…` for payment state and rate-limit buckets shared by several instances; unset: in memory.',
  },
  LOCAL_CHAIN_PORT: { description: 'Port of the local test chain (local payment mode only).' },
  LOCAL_FACILITATOR_PORT: { description: 'Port of the local facilitator (local payment mode only).' },
  RECEIPT_SIGNING_KEY: {
    description:
      "A `0x`-prefixed 32-byte hex secp256k1 private key that signs the 402 offers and every paid answer's receipt (x402 offer-receipt, EIP-712; docs/batch-and-receipts.md). Unset outside local payment mode: signed receipts are off. A malformed key, or a public anvil/Hardhat test key with `FACILITATOR_URL`, is refused at start-up (the value is never shown). A secret.",
    shownDefault: 'local payment mode: dev account 11; otherwise unset (off)',
  },
  SIGN_IN_WITH_X: {
    description:
      '`on`: every 402 offers sign-in-with-x, and a wallet that paid for a request fetches the same request again free by signing in (`wrapFetchWithSIWx`; docs/paying-and-x402.md).',
  },
  SIGN_IN_WITH_X_DAYS: { description: 'How many days a payment entitles its payer to the same document again.' },
  TRIAL_NETWORK: {
    description:
      '`on` adds Base Sepolia (`eip155:84532`) test USDC to every offer, after the main network; every document paid with it is a stamped specimen. In local payment mode a second local chain with that chain id serves it.',
  },
  TRIAL_FACILITATOR_URL: {
    description: 'Facilitator of the trial network (e.g. `https://x402.org/facilitator`).',
    shownDefault: '`FACILITATOR_URL`; local payment mode: the local facilitator',
  },
  TRIAL_PAY_TO: { description: 'Wallet that receives trial payments.', shownDefault: '`PAY_TO`' },
  TRIAL_USDC_ASSET: {
    description: 'Test USDC contract of the trial network.',
    shownDefault: '0x036CbD53842c5426634e7929541eC2318f3dCF7e (USDC on Base Sepolia)',
  },
  LOCAL_TRIAL_CHAIN_PORT: {
    description: 'Port of the local trial chain (local payment mode with `TRIAL_NETWORK=on`).',
  },
};

/** The default a variable's schema applies, as text ('' when it has none). */
export function schemaDefaultOf(name: keyof Env): string {
  const value = v.getDefault(EnvSchema.entries[name] as v.GenericSchema) as unknown;
  return value === undefined ? '' : String(value);
}

export interface Config extends Env {
  PUBLIC_BASE_URL: string;
  /** The development preview and its free PDF download: on by default only in development. */
  PREVIEW: 'on' | 'off';
  /** No facilitator configured: start the embedded chain and facilitator on loopback. */
  localPaymentMode: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Every price, a batch at its largest size included, within what a stock x402 client pays without
 * its owner raising its cap (price.ts STOCK_CLIENT_MAX_PAYMENT_USD): a higher price is a payment
 * no default client makes (docs/paying-and-x402.md, "Batches and the client's cap").
 */
function priceCapProblems(prices: Record<string, string>): string[] {
  return Object.entries(prices).flatMap(([operationId, priceUsd]) => {
    const items = operationId === 'v1_invoices_zip' ? MAX_BATCH_ITEMS : 1;
    const largest = timesUsd(priceUsd, items);
    if (!exceedsUsd(largest, STOCK_CLIENT_MAX_PAYMENT_USD)) return [];
    const what =
      items > 1 ? `a batch of ${items} invoices at ${priceUsd} USD each costs ${largest} USD` : `${largest} USD`;
    return [
      `PRICES: ${operationId}=${priceUsd}: ${what}, more than the ${STOCK_CLIENT_MAX_PAYMENT_USD} USD a stock x402 client (@x402/fetch) pays in one payment unless its owner raises spendControls.maxAmountPerPayment; ask at most ${atomicToUsd(BigInt(usdToAtomic(STOCK_CLIENT_MAX_PAYMENT_USD)) / BigInt(items))} USD`,
    ];
  });
}

/** RECEIPT_SIGNING_KEY must be a usable key and, against a real facilitator, not one the world knows. */
function receiptKeyProblems(config: Env): string[] {
  const key = config.RECEIPT_SIGNING_KEY;
  if (key === undefined) return [];
  // The value is a secret: no problem message quotes it.
  const address = receiptSignerAddress(key);
  if (!address)
    return ['RECEIPT_SIGNING_KEY: must be a 0x-prefixed 32-byte hex secp256k1 private key (the value is not shown)'];
  const testAccount = publicTestAccountIndex(address);
  if (config.FACILITATOR_URL && config.LOCAL_TEST_CHAIN === 'off' && testAccount !== undefined) {
    return [
      `RECEIPT_SIGNING_KEY: is the key of account ${testAccount} (${address}) of the public anvil/Hardhat test mnemonic ("test test … junk"); anyone could sign receipts in this service's name. ` +
        'Generate a key of your own (e.g. node -e "console.log(require(\'viem/accounts\').generatePrivateKey())"), or leave it unset to turn signed receipts off.',
    ];
  }
  return [];
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  // Empty variables count as unset, as in most shells' `FOO= npm start`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = v.safeParse(EnvSchema, present, { abortEarly: false });
  if (!parsed.success) {
    throw new ConfigError(
      toIssues(parsed.issues).map(
        (issue) => `${issue.path}: ${issue.message} (got ${JSON.stringify(present[issue.path])})`,
      ),
    );
  }
  const config = parsed.output;
  const problems: string[] = [];
  if (config.FACILITATOR_URL && !config.PAY_TO)
    problems.push('PAY_TO: is required when FACILITATOR_URL is set (the wallet that receives payments)');
  // A real facilitator paying into a key the whole world knows: anyone could take the money.
  const testAccount = config.PAY_TO === undefined ? undefined : publicTestAccountIndex(config.PAY_TO);
  if (config.FACILITATOR_URL && config.LOCAL_TEST_CHAIN === 'off' && testAccount !== undefined) {
    problems.push(
      `PAY_TO: ${config.PAY_TO} is account ${testAccount} of the public anvil/Hardhat test mnemonic ("test test … junk"); its private key is published, ` +
        "so anyone could take what it receives. Set PAY_TO to a wallet you control. (Only if FACILITATOR_URL is a local test chain's facilitator, set LOCAL_TEST_CHAIN=on.)",
    );
  }
  problems.push(...receiptKeyProblems(config));
  problems.push(...priceCapProblems(config.PRICES));
  // The preview hands out PDFs without payment: never outside development, even by mistake.
  if (config.PREVIEW === 'on' && config.NODE_ENV !== 'development')
    problems.push(
      `PREVIEW: on is allowed only with NODE_ENV=development (the preview renders PDFs without payment); NODE_ENV is ${config.NODE_ENV}`,
    );
  if (problems.length) throw new ConfigError(problems);
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return {
    ...config,
    PUBLIC_BASE_URL: (config.PUBLIC_BASE_URL ?? `http://${host}:${config.PORT}`).replace(/\/+$/, ''),
    localPaymentMode: !config.FACILITATOR_URL,
    PREVIEW: config.PREVIEW ?? (config.NODE_ENV === 'development' ? 'on' : 'off'),
  };
}
