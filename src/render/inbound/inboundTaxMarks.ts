import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { PartyView } from '../partyView.js';
import {
  documentTitleView,
  isSelfBilling,
  pintMarkCountry,
  taxRegistrationView,
  type DocumentTitleView,
} from '../taxInvoiceMarks.js';
import type { InboundText } from './inboundText.js';

/** An Australian Business Number as PINT A-NZ states the seller's legal identifier (scheme 0151). */
const ABN_LEGAL_ID = /^0151:\s*(\d{11})$/;

/**
 * The tax marks of a received PINT SG, A-NZ or JP document (taxInvoiceMarks.ts): its title, and the
 * seller block with the registration number under its country's label instead of "VAT ID" or
 * "Tax ID". The number is the seller's tax registration (BT-32: GST in Singapore, Australia and New
 * Zealand), else its tax identifier (BT-31: Japan's T-number), else an Australian seller's ABN.
 */
export function inboundTaxMarks(
  doc: InboundInvoice,
  seller: PartyView,
  localisedTitle: string,
  creditNote: boolean,
  fmt: InboundText,
): { titles: DocumentTitleView; seller: PartyView } {
  const country = pintMarkCountry(doc.customization, doc.seller.address?.country);
  const abn = country === 'AU' ? ABN_LEGAL_ID.exec(doc.seller.legalId ?? '')?.[1] : undefined;
  const number = doc.seller.taxRegistration ?? doc.seller.vatId ?? abn;
  const titles = documentTitleView(localisedTitle, fmt.locale.language, {
    country,
    registered: number !== undefined,
    creditNote,
    selfBilled: isSelfBilling(doc.customization),
  });
  if (country === undefined || number === undefined) return { titles, seller };
  return {
    titles,
    seller: {
      ...seller,
      vatId: doc.seller.taxRegistration === undefined ? null : seller.vatId,
      taxId: null,
      taxRegistration: taxRegistrationView(country, number, fmt.labels, fmt.locale.language),
    },
  };
}
