import { decimalFromNumber, significantScale } from '../../../invoice/decimal.js';
import type { Rule } from '../../rules.js';
import { blank, rule } from '../ruleHelpers.js';
import { TAX_IDENTIFIERS } from './taxIdentifiers.js';

/** The parts the PINT rules (rules.ts, uaeRules.ts) are built of. */
export const when = (failed: boolean, path: string, message: string) => (failed ? [{ path, message }] : []);

/**
 * The jurisdiction's tax identifier format and check digits on seller and buyer. Japan (aligned-ibr-jp-01)
 * and the UAE (ibr-132-ae) have official rules for the shape; the check digits, and the formats in A-NZ,
 * Singapore and Malaysia, are this service's own checks (snake_case ids: aunz_tax_number,
 * sg_gst_registration_number, my_tin, jp_registration_number), so a number no authority issued is not sold.
 * `roles`: the parties the rule reads (default both); `sellerCountry`: the seller's number is that country's
 * wherever the seller is (PINT JP: a foreign seller's qualified-invoice registration is Japan's, and
 * aligned-ibr-jp-01 reads the seller's whatever the address, and not the buyer's).
 */
export const taxNumberFormat = (
  id: string,
  options: { roles?: readonly ('seller' | 'buyer')[]; sellerCountry?: string } = {},
): Rule =>
  rule(id, "tax_registration_number has the format and check digits of the party's country", (c) =>
    (options.roles ?? (['seller', 'buyer'] as const)).flatMap((role) => {
      const number = c.invoice[role].tax_registration_number;
      const country = role === 'seller' ? (options.sellerCountry ?? c.invoice.seller.country) : c.invoice.buyer.country;
      const known = TAX_IDENTIFIERS[country ?? ''];
      return number === undefined || known === undefined || known.valid(number)
        ? []
        : [
            {
              path: `${role}.tax_registration_number`,
              message: `is not a valid ${known.name}: must be ${known.format}`,
            },
          ];
    }),
  );

export const sellerTaxNumber = (id: string, what: string): Rule =>
  rule(id, `the seller's ${what} (BT-31) is required: seller.tax_registration_number`, (c) =>
    when(
      blank(c.invoice.seller.tax_registration_number),
      'seller.tax_registration_number',
      `is required: the seller's ${what} (BT-31, ${id})`,
    ),
  );

/** Decimals of quantity × price, exactly (the product of two decimals, trailing zeros dropped). */
export function productDecimals(quantity: number, price: number): number {
  const q = decimalFromNumber(quantity);
  const p = decimalFromNumber(price);
  return significantScale({ coefficient: q.coefficient * p.coefficient, scale: q.scale + p.scale });
}
