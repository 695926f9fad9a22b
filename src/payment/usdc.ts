import { USDC_ON_BASE as USDC_ON_BASE_TOKEN } from '../invoice/paymentQr/eip681.js';

/**
 * USDC on Base mainnet (eip155:8453): the default asset of the offer, and the address the local
 * payment network deploys its test USDC at, so that production offers and @x402/fetch's default
 * spend controls (known assets only) work unchanged against the local chain.
 */
export const USDC_ON_BASE = USDC_ON_BASE_TOKEN.token;
