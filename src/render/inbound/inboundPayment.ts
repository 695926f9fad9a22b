import Handlebars from 'handlebars';
import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import { CURRENCIES } from '../../invoice/currencies.js';
import { checkIban, formatIban } from '../../invoice/paymentQr/iban.js';
import { EPC_LIMITS, epcPayload } from '../../invoice/paymentQr/epc.js';
import { paymentQrSvg } from '../paymentQrSvg.js';
import type { InvoiceView } from '../invoiceView.js';
import type { InboundText } from './inboundText.js';

/**
 * The payment block: the first means with an account (else the first), its IBAN formatted when
 * valid, and a SEPA QR code for a EUR invoice with a valid IBAN.
 */
export function inboundPayment(doc: InboundInvoice): InvoiceView['payment'] {
  const means = doc.paymentMeans.find((entry) => entry.account !== undefined) ?? doc.paymentMeans[0];
  const paymentReference = doc.paymentReference ?? null;
  if (!means || !(means.account || paymentReference)) return null;
  const ibanOk = means.account !== undefined && checkIban(means.account).ok;
  return {
    accountName: means.accountName ?? null,
    iban: means.account ? (ibanOk ? formatIban(means.account) : means.account) : null,
    bic: means.bic ?? null,
    reference: paymentReference,
    qr:
      ibanOk && doc.currency === 'EUR' && means.account
        ? epcQr(doc, means.account, means.bic, means.accountName)
        : null,
  };
}

/** Every payment means (BG-16) the document states, with all its values. */
export function inboundPaymentMeans(
  doc: InboundInvoice,
  { labels }: InboundText,
): { label: string; values: string[] }[] {
  return doc.paymentMeans.map((entry) => ({
    label: `${labels.payment_details}${entry.code ? ` · ${entry.code}` : ''}`,
    values: [
      entry.text,
      // An IBAN under "IBAN"; any other account number (BT-84) under the page's word for an identifier.
      entry.account
        ? checkIban(entry.account).ok
          ? `${labels.iban}: ${formatIban(entry.account)}`
          : `${labels.inbound_identifier}: ${entry.account}`
        : undefined,
      entry.accountName ? `${labels.account_name}: ${entry.accountName}` : undefined,
      entry.bic ? `${labels.bic}: ${entry.bic}` : undefined,
      entry.card ? `${labels.inbound_bt_card} (BG-18): ${entry.card}` : undefined,
      entry.mandate ? `${labels.inbound_bt_mandate} (BT-89): ${entry.mandate}` : undefined,
      entry.debitedAccount ? `${labels.inbound_bt_debited_account} (BT-91): ${entry.debitedAccount}` : undefined,
    ].filter((value): value is string => value !== undefined),
  }));
}

/** The SEPA credit transfer QR (EPC 069-12) for a EUR invoice with an IBAN: the amount due. */
function epcQr(
  doc: InboundInvoice,
  iban: string,
  bic: string | undefined,
  accountName: string | undefined,
): NonNullable<InvoiceView['payment']>['qr'] {
  const due = /^\d+(\.\d{1,2})?$/.exec((doc.totals.duePayable ?? doc.totals.grandTotal ?? '').trim());
  if (!due || Number(due[0]) <= 0 || Number(due[0]) > 999_999_999.99) return null;
  try {
    const payload = epcPayload({
      name: (accountName ?? doc.seller.name).slice(0, 70),
      iban: iban.replace(/\s+/g, ''),
      bic,
      amount: Number(due[0]).toFixed(CURRENCIES.EUR.digits),
      text: (doc.paymentReference ?? doc.number).slice(0, 140),
    });
    if (Buffer.byteLength(payload) > EPC_LIMITS.payloadBytes) return null;
    return {
      svg: new Handlebars.SafeString(paymentQrSvg(payload, { size: '30mm' }).svg),
      scheme: 'SEPA (EPC QR)',
      lines: [],
    };
  } catch {
    return null;
  }
}
