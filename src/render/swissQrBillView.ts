import Handlebars from 'handlebars';
import {
  formatIban,
  formatQrReference,
  formatRfReference,
  groupedAmount,
  type SwissAddress,
  type SwissQr,
} from '../invoice/paymentQr/index.js';
import { paymentQrSvg } from './paymentQrSvg.js';

/**
 * What templates/partials/swiss-qr-bill.hbs prints: the receipt and the payment part of a Swiss
 * QR-bill (SIX style guide for the QR-bill), as display strings. Every field is present (null when
 * absent): the templates are compiled in strict mode. Texts come from the same SwissQrFields the
 * QR code is made of, so the printed part can never disagree with the code.
 */
export interface SwissQrBillView {
  lang: SwissQrBillLanguage;
  labels: SwissQrBillLabels;
  /** Inline SVG, geometry only (render/paymentQrSvg.ts): 46 × 46 mm with the Swiss cross. */
  qrSvg: Handlebars.SafeString;
  /** "CH44 3199 9123 0008 8901 2". */
  account: string;
  /** Name, street and building number, postal code and town. */
  creditor: string[];
  /** QRR in blocks of 5 from the right, SCOR in blocks of 4; null for NON. */
  reference: string | null;
  /** The unstructured message (payment part only). */
  additionalInformation: string | null;
  /** Null: the blank "Payable by (name/address)" field with corner marks. */
  debtor: string[] | null;
  currency: string;
  /** "1 949.75". */
  amount: string;
}

export type SwissQrBillLanguage = 'de' | 'fr' | 'it' | 'en';

export interface SwissQrBillLabels {
  receipt: string;
  paymentPart: string;
  account: string;
  reference: string;
  additionalInformation: string;
  payableBy: string;
  payableByNameAddress: string;
  currency: string;
  amount: string;
  acceptancePoint: string;
}

/** The headings of the IG QR-bill (annex), in the four languages it defines. */
export const SWISS_QR_BILL_LABELS: Record<SwissQrBillLanguage, SwissQrBillLabels> = {
  de: {
    receipt: 'Empfangsschein',
    paymentPart: 'Zahlteil',
    account: 'Konto / Zahlbar an',
    reference: 'Referenz',
    additionalInformation: 'Zusätzliche Informationen',
    payableBy: 'Zahlbar durch',
    payableByNameAddress: 'Zahlbar durch (Name/Adresse)',
    currency: 'Währung',
    amount: 'Betrag',
    acceptancePoint: 'Annahmestelle',
  },
  fr: {
    receipt: 'Récépissé',
    paymentPart: 'Section paiement',
    account: 'Compte / Payable à',
    reference: 'Référence',
    additionalInformation: 'Informations supplémentaires',
    payableBy: 'Payable par',
    payableByNameAddress: 'Payable par (nom/adresse)',
    currency: 'Monnaie',
    amount: 'Montant',
    acceptancePoint: 'Point de dépôt',
  },
  it: {
    receipt: 'Ricevuta',
    paymentPart: 'Sezione pagamento',
    account: 'Conto / Pagabile a',
    reference: 'Riferimento',
    additionalInformation: 'Informazioni supplementari',
    payableBy: 'Pagabile da',
    payableByNameAddress: 'Pagabile da (nome/indirizzo)',
    currency: 'Valuta',
    amount: 'Importo',
    acceptancePoint: 'Punto di accettazione',
  },
  en: {
    receipt: 'Receipt',
    paymentPart: 'Payment part',
    account: 'Account / Payable to',
    reference: 'Reference',
    additionalInformation: 'Additional information',
    payableBy: 'Payable by',
    payableByNameAddress: 'Payable by (name/address)',
    currency: 'Currency',
    amount: 'Amount',
    acceptancePoint: 'Acceptance point',
  },
};

/** The QR-bill's language from the invoice's locale: de, fr or it when it is one of them, else English. */
export function swissQrBillLanguage(locale: string | undefined): SwissQrBillLanguage {
  const language = locale?.split('-')[0]?.toLowerCase();
  return language === 'de' || language === 'fr' || language === 'it' ? language : 'en';
}

/** Name; street and building number; postal code and town, with the country code before it when not CH/LI. */
function addressLines(address: SwissAddress): string[] {
  const street = [address.street, address.buildingNumber].filter(Boolean).join(' ');
  const country = address.country === 'CH' || address.country === 'LI' ? '' : `${address.country}-`;
  return [address.name, ...(street ? [street] : []), `${country}${address.postalCode} ${address.town}`];
}

export function buildSwissQrBillView(qr: SwissQr, language: SwissQrBillLanguage = 'en'): SwissQrBillView {
  const { fields } = qr;
  const reference =
    fields.referenceType === 'QRR'
      ? formatQrReference(fields.reference!)
      : fields.referenceType === 'SCOR'
        ? formatRfReference(fields.reference!)
        : null;
  return {
    lang: language,
    labels: SWISS_QR_BILL_LABELS[language],
    qrSvg: new Handlebars.SafeString(
      paymentQrSvg(qr.payload, { quietZoneModules: 0, size: '46mm', swissCross: true, maxVersion: 25 }).svg,
    ),
    account: formatIban(fields.account),
    creditor: addressLines(fields.creditor),
    reference,
    additionalInformation: fields.message ?? null,
    debtor: fields.debtor ? addressLines(fields.debtor) : null,
    currency: fields.currency,
    amount: groupedAmount(qr.amountMinor, 2),
  };
}
