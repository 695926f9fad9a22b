import type { InboundInvoice } from '../../invoice/inboundInvoice.js';
import type { PartyView } from '../partyView.js';
import {
  documentTitleView,
  isSelfBilling,
  pintMarkCountry,
  printsIdentifierAsRegistration,
  taxRegistrationView,
  type DocumentTitleView,
} from '../taxInvoiceMarks.js';
import type { InboundText } from './inboundText.js';

/** An Australian Business Number as PINT A-NZ states the seller's legal identifier (scheme 0151). */
const ABN_LEGAL_ID = /^0151:\s*(\d{11})$/;

/**
 * The tax marks of a received PINT SG, A-NZ, JP, MY or AE document (taxInvoiceMarks.ts): its title,
 * and the seller block with the registration number under its country's label instead of "VAT ID"
 * or "Tax ID". The number is the seller's tax registration (BT-32: GST in Singapore, Australia and
 * New Zealand, Malaysia's TIN), else its tax identifier (BT-31: Japan's T-number, the UAE's TRN),
 * else an Australian seller's ABN. The buyer's tax identifier (BT-48) is printed under its country's
 * label the same way (a Japanese buyer's T-number as the registration number, not "VAT ID"), except
 * Malaysia's, whose BT-48 is not the TIN.
 */
export function inboundTaxMarks(
  doc: InboundInvoice,
  parties: { seller: PartyView; buyer: PartyView },
  localisedTitle: string,
  creditNote: boolean,
  fmt: InboundText,
): { titles: DocumentTitleView; seller: PartyView; buyer: PartyView } {
  const { seller, buyer } = parties;
  const country = pintMarkCountry(doc.customization, doc.seller.address?.country);
  const abn = country === 'AU' ? ABN_LEGAL_ID.exec(doc.seller.legalId ?? '')?.[1] : undefined;
  const number = doc.seller.taxRegistration ?? doc.seller.vatId ?? abn;
  const titles = documentTitleView(localisedTitle, fmt.locale.language, {
    country,
    registered: number !== undefined,
    creditNote,
    selfBilled: isSelfBilling(doc.customization),
  });
  if (country === undefined) return { titles, seller, buyer };
  const buyerCountry = doc.buyer.address?.country ?? country;
  const buyerNumber = doc.buyer.vatId;
  return {
    titles,
    seller:
      number === undefined
        ? seller
        : {
            ...seller,
            vatId: doc.seller.taxRegistration === undefined ? null : seller.vatId,
            taxId: null,
            taxRegistration: taxRegistrationView(country, number, fmt.labels, fmt.locale.language),
          },
    buyer:
      buyerNumber === undefined || !printsIdentifierAsRegistration(buyerCountry)
        ? buyer
        : {
            ...buyer,
            vatId: null,
            taxRegistration: taxRegistrationView(buyerCountry, buyerNumber, fmt.labels, fmt.locale.language),
          },
  };
}
