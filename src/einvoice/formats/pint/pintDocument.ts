import { createHash } from 'node:crypto';
import { decimalFromNumber } from '../../../invoice/decimal.js';
import { minorToDecimal } from '../../../invoice/money.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { divideRounded } from '../../../invoice/rounding.js';
import type { EInvoiceDocument, EParty } from '../../document.js';
import { asNegatedInvoice } from './negatedInvoice.js';
import { taxCurrencyTotals } from './taxCurrency.js';
import { PINT_JURISDICTIONS, pintCategoryCode, type PintProfile } from './jurisdictions.js';

/**
 * The EN 16931 document as a PINT jurisdiction writes it: its tax scheme (GST or VAT), its own
 * category codes (SR/ZR in Singapore, SA/SE in Malaysia, AA for Japan's reduced rate), the tax
 * identifier from tax_registration_number, the tax currency with the VAT total converted at the
 * request's rate (BT-6, BT-111), and for the UAE the document UUID, transaction type, item
 * description and line VAT (BTAE-07, BTAE-02, IBT-154, BTAE-08/10). Amounts are the same Totals.
 */
export const adaptPint =
  (profile: PintProfile) =>
  (document: EInvoiceDocument, { invoice, totals }: PreparedInvoice): EInvoiceDocument => {
    const jurisdiction = PINT_JURISDICTIONS[profile];
    const lineCodes = document.lines.map(
      (line, at) =>
        pintCategoryCode(jurisdiction, line.category, line.rate, invoice.line_items[at]?.tax_code) ?? line.category,
    );
    /** A breakdown or allowance of a category and rate is written with the code its lines have. */
    const groupCode = (category: string, rate: string | undefined) => {
      const at = document.lines.findIndex((line) => line.category === category && line.rate === rate);
      return at < 0 ? category : lineCodes[at]!;
    };
    const withTaxNumber = (party: EParty, number: string | undefined, issuer: string | undefined): EParty => ({
      ...party,
      vatId: number ?? party.vatId,
      // The UAE's legal registration is the trade licence (BTAE-15 type TL, ibr-173-ae, ibr-181-ae).
      legalRegistration:
        uae && party.legalRegistration
          ? { ...party.legalRegistration, agency: 'TL', ...(issuer !== undefined ? { agencyName: issuer } : {}) }
          : party.legalRegistration,
    });
    const uae = profile === 'pint-ae';
    const taxCurrency = invoice.tax_currency;
    const adapted: EInvoiceDocument = {
      ...document,
      taxScheme: jurisdiction.taxScheme,
      // The UAE requires a payment means (ibr-191-ae): "instrument not defined" when no account is given.
      paymentMeans:
        uae && !document.paymentMeans && !document.creditNote
          ? { code: '1', iban: undefined, bic: undefined, accountName: undefined }
          : document.paymentMeans,
      seller: withTaxNumber(
        document.seller,
        invoice.seller.tax_registration_number,
        invoice.seller.legal_registration?.issuer,
      ),
      buyer: withTaxNumber(
        document.buyer,
        invoice.buyer.tax_registration_number,
        invoice.buyer.legal_registration?.issuer,
      ),
      allowances: document.allowances.map((allowance) => ({
        ...allowance,
        categoryCode: groupCode(allowance.category, allowance.rate),
      })),
      breakdown: document.breakdown.map((group) => ({
        ...group,
        categoryCode: groupCode(group.category, group.rate),
        ...(uae && group.category === 'E' ? { rate: undefined } : {}),
        ...(uae && group.category === 'E' && invoice.tax_exemption_code
          ? { exemptionCode: invoice.tax_exemption_code }
          : {}),
      })),
      lines: document.lines.map((line, at) => {
        const item = invoice.line_items[at];
        const classification = item?.item_classification;
        // The UAE: an exempt line has no rate, no line VAT and names its exemption code (ibr-121-ae, ibr-163-ae, ibr-167-ae).
        const uaeExempt = uae && line.category === 'E';
        const lineTax = uae && !uaeExempt ? lineVat(totals.lineAmounts[at] ?? 0n, line.rate) : undefined;
        return {
          ...line,
          rate: uaeExempt ? undefined : line.rate,
          categoryCode: lineCodes[at]!,
          extra: {
            ...line.extra,
            ...(classification ? { classification } : {}),
            ...(uae ? { description: line.name, grossPrice: true } : {}),
            ...(uaeExempt && invoice.tax_exemption_code ? { exemptionCode: invoice.tax_exemption_code } : {}),
            ...(lineTax !== undefined ? { tax: minorToDecimal(lineTax, totals.digits) } : {}),
            // BTAE-10, on every UAE line (ibr-194-ae); an exempt line's is its net amount.
            ...(uae
              ? { amountWithTax: minorToDecimal((totals.lineAmounts[at] ?? 0n) + (lineTax ?? 0n), totals.digits) }
              : {}),
          },
        };
      }),
      extra: {
        ...document.extra,
        ...(taxCurrency ? { taxCurrency: taxCurrencyTotals(totals, taxCurrency, profile) } : {}),
        // Singapore (BR-108-GST-SG) and the UAE (ibr-193-ae) identify each document by a UUID.
        ...(uae || profile === 'pint-sg'
          ? { uuid: documentUuid(invoice.seller.name, invoice.invoice_number, invoice.issue_date) }
          : {}),
        ...(uae ? { transactionType: invoice.transaction_type ?? '00000000' } : {}),
        ...(uae && document.creditNote && invoice.credit_note_reason_code !== undefined
          ? { creditNoteReason: invoice.credit_note_reason_code }
          : {}),
      },
    };
    // Japan writes a credit note as an invoice with negative amounts (negatedInvoice.ts).
    return profile === 'pint-jp' && adapted.creditNote ? asNegatedInvoice(adapted) : adapted;
  };

/** A line's VAT, its net amount × rate rounded half away from zero (UAE BTAE-08). */
function lineVat(net: bigint, rate: string | undefined): bigint {
  if (rate === undefined) return 0n;
  const { coefficient, scale } = decimalFromNumber(Number(rate));
  return divideRounded(net * coefficient, 100n * 10n ** BigInt(scale));
}

/**
 * The UAE's unique invoice identifier (BTAE-07) as a UUID derived from seller, number and date, so
 * the same invoice always gets the same one (a random UUID would make two writes of one invoice differ).
 */
function documentUuid(seller: string, number: string, date: string): string {
  const hex = createHash('sha256').update(`${seller}\u0000${number}\u0000${date}`).digest('hex');
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
