import { ratioFromNumber, ratioToNumber } from '../ratio.js';

/**
 * What it costs, per year, to skip an early-payment discount of D% offered for X days on terms
 * due after N days: paying D% more buys N − X days of credit.
 *   simple     = d/(1−d) × 365/(N−X)              (d = D/100), exact rational maths
 *   compounded = (1 + d/(1−d))^(365/(N−X)) − 1    binary floating point: the power is not rational
 * Both are answered in percent rounded half away from zero to 2 decimals ("2/10 Net 30": 37.24
 * and 44.59). The compounded figure is null when it exceeds what a JSON number can hold.
 */
export interface DiscountCost {
  simple_percent: number;
  compounded_percent: number | null;
}

export function annualisedDiscountCost(discountPercent: number, discountDays: number, netDays: number): DiscountCost {
  const { numerator: p, denominator: q } = ratioFromNumber(discountPercent); // D = p/q
  const creditDays = BigInt(netDays - discountDays);
  // d/(1−d) = p/(100q − p); times 365/(N−X); times 100 for percent.
  const simple = ratioToNumber({ numerator: p * 365n * 100n, denominator: (100n * q - p) * creditDays }, 2);
  const growth = Math.pow(Number(100n * q) / Number(100n * q - p), 365 / (netDays - discountDays)) - 1;
  const compounded = Math.round(growth * 100 * 100) / 100;
  return { simple_percent: simple, compounded_percent: Number.isFinite(compounded) ? compounded : null };
}
