/** "0.02" USD → "20000" atomic units of a 6-decimal stablecoin (USDC), without floats. */
export function usdToAtomic(priceUsd: string, decimals = 6): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(priceUsd);
  if (!match) throw new RangeError(`not a USD amount: ${priceUsd}`);
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals) throw new RangeError(`${priceUsd} has more than ${decimals} decimals`);
  return BigInt(whole + fraction.padEnd(decimals, '0')).toString();
}

/** "20000" atomic units of a 6-decimal stablecoin → "0.02" USD (the inverse of usdToAtomic). */
export function atomicToUsd(atomic: bigint, decimals = 6): string {
  const text = atomic.toString().padStart(decimals + 1, '0');
  const fraction = text.slice(text.length - decimals).replace(/0+$/, '');
  return `${text.slice(0, text.length - decimals)}${fraction ? `.${fraction}` : ''}`;
}

/** A USD price `count` times, exactly (atomic units, no floats): the price of a batch of `count` items. */
export const timesUsd = (priceUsd: string, count: number): string =>
  atomicToUsd(BigInt(usdToAtomic(priceUsd)) * BigInt(count));

/**
 * The most a stock x402 client pays in one payment: @x402/core's client refuses any single payment
 * above `DEFAULT_MAX_AMOUNT_PER_PAYMENT` ("$1") of a known asset such as USDC unless its owner
 * raises `spendControls.maxAmountPerPayment` (@x402/core client/x402Client). No price this service
 * asks (a batch at its largest size included) may exceed it: config.ts refuses such PRICES.
 */
export const STOCK_CLIENT_MAX_PAYMENT_USD = '1';

/** Whether `priceUsd` is more than `limitUsd` (exactly, in atomic units). */
export const exceedsUsd = (priceUsd: string, limitUsd: string): boolean =>
  BigInt(usdToAtomic(priceUsd)) > BigInt(usdToAtomic(limitUsd));
