import type { Issue } from '../../../errors.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { computeFa3Amounts, type Fa3Amounts } from './fa3Amounts.js';
import { checkKsef, lineRateCodes } from './ksefChecks.js';
import type { KsefFields, RateCode } from './ksefFields.js';

/**
 * The invoice of a request under profile ksef with its `ksef` object (parsed by the generic check,
 * prepareEInvoice.ts), checked against FA(3)'s rules: what writeFa3.ts writes from.
 */
export interface KsefInvoice extends KsefChecked {
  prepared: PreparedInvoice;
}

/** What FA(3)'s check keeps of a request (the checked request's `own`): its object, each line's rate code, its amounts. */
export interface KsefChecked {
  ksef: KsefFields;
  /** Each line's P_12 (undefined: margin scheme). */
  lineCodes: (RateCode | undefined)[];
  amounts: Fa3Amounts;
}

/** FA(3)'s own checks of the invoice with its `ksef` object (the module's checks.own): every issue, not thrown. */
export function checkKsefObject(prepared: PreparedInvoice, ksef: KsefFields): { issues: Issue[]; own: KsefChecked } {
  const lineCodes = lineRateCodes(prepared, ksef);
  const issues = checkKsef(prepared, ksef, lineCodes);
  return { issues, own: { ksef, lineCodes, amounts: computeFa3Amounts(prepared, ksef, lineCodes) } };
}
