import { currencyDigits, type CurrencyCode } from '../../../invoice/currencies.js';
import { decimalFromNumber, decimalToString } from '../../../invoice/decimal.js';
import { minorToDecimal } from '../../../invoice/money.js';
import { inTaxCurrency } from '../../../invoice/taxCurrency.js';
import type { Totals } from '../../../invoice/totals.js';
import type { EDocumentExtra } from '../../document.js';
import type { PintProfile } from './jurisdictions.js';

type TaxCurrencyInput = { code: CurrencyCode; exchange_rate: number };

/** The tax-currency totals a profile writes: BT-111 (the VAT total), and where the jurisdiction asks, the totals with and without tax. */
export function taxCurrencyTotals(
  totals: Totals,
  taxCurrency: TaxCurrencyInput,
  profile: PintProfile,
): NonNullable<EDocumentExtra['taxCurrency']> {
  const targetDigits = currencyDigits(taxCurrency.code);
  const tax = inTaxCurrency(totals.tax, totals.digits, taxCurrency);
  // BT-111 is taxInTaxCurrency's value: validate answers the same text.
  const withoutTax = inTaxCurrency(totals.taxable, totals.digits, taxCurrency);
  const text = (minor: bigint) => minorToDecimal(minor, targetDigits);
  // Singapore (BR-53-GST-SG) and the UAE (ibr-175-ae) state the totals in their currency as document references.
  const references =
    profile === 'pint-sg'
      ? [
          { typeCode: 'sgdtotal-excl-gst', amount: text(withoutTax) },
          { typeCode: 'sgdtotal-incl-gst', amount: text(withoutTax + tax) },
        ]
      : profile === 'pint-ae'
        ? [{ typeCode: 'aedtotal-incl-vat', amount: text(withoutTax + tax) }]
        : [];
  return {
    code: taxCurrency.code,
    rate: decimalToString(decimalFromNumber(taxCurrency.exchange_rate)),
    taxTotal: text(tax),
    writeRate: profile === 'pint-ae',
    references,
  };
}
