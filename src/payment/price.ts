/** "0.02" USD → "20000" atomic units of a 6-decimal stablecoin (USDC), without floats. */
export function usdToAtomic(priceUsd: string, decimals = 6): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(priceUsd);
  if (!match) throw new RangeError(`not a USD amount: ${priceUsd}`);
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals) throw new RangeError(`${priceUsd} has more than ${decimals} decimals`);
  return (BigInt(whole + fraction.padEnd(decimals, '0'))).toString();
}
