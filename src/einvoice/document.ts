import { decimalFromNumber, decimalToString } from '../invoice/decimal.js';
import { minorToDecimal } from '../invoice/money.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import type { Party } from '../invoice/schema.js';
import type { VatCategory } from '../invoice/vatCategories.js';
import { legalNotesOf, type ENote } from './legalNotes.js';
import { DEFAULT_UNIT_CODE } from './unitCodes.js';

/**
 * The invoice as EN 16931 sees it (business terms BT-…, groups BG-…), independent of the syntax:
 * cii.ts and ubl.ts only place these values. Every amount is the decimal text of a value of the
 * same Totals that validate answers, so the XML and validate can never disagree.
 */
export interface EAddress {
  /** BT-35/50/75, BT-36/51/76, BT-162/163/165. */
  lines: string[];
  city: string | undefined;
  postalCode: string | undefined;
  country: string | undefined;
  /** BT-39/54/79. */
  subdivision?: string;
}

export interface EParty {
  name: string;
  address: EAddress;
  /** BT-31 / BT-48. */
  vatId: string | undefined;
  /** BT-32 (seller tax registration, scheme FC). */
  taxRegistration: string | undefined;
  contactName: string | undefined;
  phone: string | undefined;
  email: string | undefined;
  /** BT-34 / BT-49 with its scheme (BT-34-1 / BT-49-1). */
  electronicAddress: { scheme: string; id: string } | undefined;
  /** BT-30 / BT-47 with its scheme (BT-30-1 / BT-47-1) when given. */
  legalRegistration: { scheme: string | undefined; id: string; agency?: string; agencyName?: string } | undefined;
}

interface ELine {
  id: string;
  name: string;
  itemCode: string | undefined;
  quantity: string;
  unitCode: string;
  /** BT-146, the unit price as sent (no rounding). */
  price: string;
  /** BT-131. */
  net: string;
  category: VatCategory;
  /** Absent for O (BR-O-05). */
  rate: string | undefined;
  /** BT-151 as written: the category, or a PINT jurisdiction's own code (SR, AA, SA, …). */
  categoryCode: string;
  /** What a PINT or Croatian profile adds to a line (formats/pint, formats/hr). */
  extra?: ELineExtra;
}

interface ELineExtra {
  /** BT-154. */
  description?: string;
  /** BT-158 with its list id BT-158-1. */
  classification?: { scheme: string; code: string };
  /** UAE: CommodityCode G (goods) / S (services) of the classification. */
  commodityType?: 'G' | 'S';
  /** Croatia's HR-BT-12 tax category name (HR:PDV25, HR:E, …). */
  taxName?: string;
  /** The exemption reason on the line (HR-BT-13), and its code (UAE IBT-186). */
  exemptionReason?: string;
  exemptionCode?: string;
  /** UAE IBT-148/IBT-149: the gross price (= the net price, no price discount) and base quantity 1. */
  grossPrice?: boolean;
  /** UAE BTAE-08 and BTAE-10: the line's VAT and its amount with VAT. */
  tax?: string;
  amountWithTax?: string;
}

interface EAllowance {
  amount: string;
  category: VatCategory;
  rate: string | undefined;
  categoryCode: string;
}

interface EBreakdown {
  category: VatCategory;
  rate: string | undefined;
  basis: string;
  tax: string;
  exemptionReason: string | undefined;
  exemptionCode: string | undefined;
  categoryCode: string;
}

export interface EInvoiceDocument {
  /** BT-24, the profile's specification identifier. */
  specification: string;
  /** BT-23. */
  businessProcess: string | undefined;
  creditNote: boolean;
  /** BT-3: 380 commercial invoice, 381 credit note. */
  typeCode: '380' | '381';
  number: string;
  issueDate: string;
  dueDate: string | undefined;
  currency: string;
  notes: ENote[];
  buyerReference: string | undefined;
  orderReference: string | undefined;
  preceding: { number: string; issueDate: string | undefined } | undefined;
  seller: EParty;
  buyer: EParty;
  /** BG-13: the deliver-to party (BT-70, BG-15) and the actual delivery date (BT-72). */
  delivery:
    { party: { name: string | undefined; address: EAddress } | undefined; date: string | undefined } | undefined;
  /** BG-14. */
  invoicingPeriod: { start: string; end: string } | undefined;
  paymentMeans:
    { code: string; iban: string | undefined; bic: string | undefined; accountName: string | undefined } | undefined;
  paymentReference: string | undefined;
  paymentTerms: string | undefined;
  allowances: EAllowance[];
  breakdown: EBreakdown[];
  totals: {
    lineTotal: string;
    allowanceTotal: string | undefined;
    taxBasis: string;
    taxTotal: string;
    grandTotal: string;
    prepaid: string | undefined;
    /** BT-114. */
    rounding: string | undefined;
    duePayable: string;
  };
  lines: ELine[];
  /** cac:TaxScheme/cbc:ID: VAT, or GST in PINT A-NZ and Singapore. */
  taxScheme: string;
  /** What a PINT or Croatian profile adds to the document (formats/pint, formats/hr). */
  extra?: EDocumentExtra;
}

export interface EDocumentExtra {
  /** BT-6 with the VAT total in it (BT-111) and the rate it was converted with. */
  taxCurrency?: {
    code: string;
    rate: string;
    taxTotal: string;
    /** cac:TaxExchangeRate is written (the UAE requires it, ibr-159-ae; elsewhere UBL-CR-490 advises against it). */
    writeRate: boolean;
    /** Totals in the tax currency as AdditionalDocumentReference (Singapore sgdtotal-*, UAE aedtotal-incl-vat). */
    references: { typeCode: string; amount: string }[];
  };
  /** UAE BTAE-07 and BTAE-02. */
  uuid?: string;
  transactionType?: string;
  /** UAE BTAE-03, the credit note reason code (cac:DiscrepancyResponse, a UBL CreditNote only). */
  creditNoteReason?: string;
  /** Croatia HR-BT-2, and the operator HR-BT-4/HR-BT-5 (cac:SellerContact). */
  issueTime?: string;
  operator?: { name: string; id: string };
}

/** VATEX codes (CEF exemption reason code list) where one code fits every such invoice. */
const EXEMPTION_CODES: Partial<Record<VatCategory, string>> = {
  AE: 'VATEX-EU-AE',
  K: 'VATEX-EU-IC',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

/** Empty or blank text is left out: EN 16931 has no empty business terms. */
const present = (value: string | undefined): string | undefined =>
  value !== undefined && value.trim() !== '' ? value : undefined;

/**
 * What the document builder needs of the profile it writes under (its format module's fields): the
 * profile is an argument, so that this generic builder depends on no list of formats.
 */
export interface DocumentProfile {
  specification: string;
  defaultBusinessProcess?: string;
  adapt?: (document: EInvoiceDocument, prepared: PreparedInvoice) => EInvoiceDocument;
}

export function toEInvoiceDocument(prepared: PreparedInvoice, definition: DocumentProfile): EInvoiceDocument {
  const { invoice, totals } = prepared;
  const money = (minor: bigint) => minorToDecimal(minor, totals.digits);
  const rateOf = (category: VatCategory, rate: Parameters<typeof decimalToString>[0]) =>
    category === 'O' ? undefined : decimalToString(rate);
  const creditNote = invoice.document_type === 'credit_note';
  const hasIntraEu = totals.groups.some((group) => group.category === 'K');
  const payment = invoice.payment;
  const iban = payment?.iban?.replace(/ /g, '');
  const shipTo = invoice.ship_to ?? (hasIntraEu ? invoice.buyer : undefined);
  // BR-IC-11/12: an intra-EU supply states where and when it was delivered; without a delivery
  // date the issue date stands for it (docs/e-invoices.md: the date of supply is the issue date).
  const deliveryDate = invoice.delivery_date ?? (hasIntraEu ? invoice.issue_date : undefined);
  const document = {
    specification: definition.specification,
    businessProcess: invoice.business_process ?? definition.defaultBusinessProcess,
    creditNote,
    typeCode: creditNote ? '381' : '380',
    number: invoice.invoice_number,
    issueDate: invoice.issue_date,
    dueDate: invoice.due_date,
    currency: totals.currency,
    notes: [
      ...[present(invoice.notes)]
        .filter((note): note is string => note !== undefined)
        .map((content) => ({ content, subjectCode: undefined })),
      ...legalNotesOf(invoice.legal_notes),
    ],
    buyerReference: invoice.buyer_reference,
    orderReference: invoice.purchase_order,
    preceding: invoice.preceding_invoice
      ? { number: invoice.preceding_invoice.number, issueDate: invoice.preceding_invoice.issue_date }
      : undefined,
    seller: toParty(invoice.seller),
    buyer: toParty(invoice.buyer),
    delivery:
      shipTo || deliveryDate !== undefined
        ? { party: shipTo ? { name: present(shipTo.name), address: toAddress(shipTo) } : undefined, date: deliveryDate }
        : undefined,
    invoicingPeriod: invoice.invoicing_period,
    paymentMeans: iban
      ? { code: totals.currency === 'EUR' ? '58' : '30', iban, bic: payment?.bic, accountName: payment?.account_name }
      : undefined,
    paymentReference: payment?.reference,
    paymentTerms: present(invoice.payment_instructions),
    allowances: totals.groups
      .filter((group) => group.discount > 0n)
      .map((group) => ({
        amount: money(group.discount),
        category: group.category,
        rate: rateOf(group.category, group.rate),
        categoryCode: group.category,
      })),
    breakdown: totals.groups.map((group) => {
      const exempt = group.category !== 'S' && group.category !== 'Z';
      return {
        category: group.category,
        rate: rateOf(group.category, group.rate),
        basis: money(group.taxable),
        tax: money(group.tax),
        exemptionReason: exempt ? present(invoice.tax_exemption_reason) : undefined,
        exemptionCode: EXEMPTION_CODES[group.category],
        categoryCode: group.category,
      };
    }),
    totals: {
      lineTotal: money(totals.subtotal),
      allowanceTotal: totals.discount > 0n ? money(totals.discount) : undefined,
      taxBasis: money(totals.taxable),
      taxTotal: money(totals.tax),
      grandTotal: money(totals.total),
      prepaid: invoice.amount_paid !== undefined ? money(totals.amountPaid) : undefined,
      rounding: invoice.rounding_amount !== undefined ? money(totals.rounding) : undefined,
      duePayable: money(totals.balanceDue),
    },
    lines: invoice.line_items.map((line, at) => {
      const tax = totals.lineTax[at];
      const category = tax?.category ?? 'Z';
      return {
        id: String(at + 1),
        name: line.description,
        itemCode: line.item_code,
        quantity: decimalToString(decimalFromNumber(line.quantity)),
        unitCode: line.unit ?? DEFAULT_UNIT_CODE,
        price: decimalToString(decimalFromNumber(line.unit_price)),
        net: money(totals.lineAmounts[at] ?? 0n),
        category,
        rate: tax ? rateOf(category, tax.rate) : '0',
        categoryCode: category,
      };
    }),
    taxScheme: 'VAT',
  } satisfies EInvoiceDocument;
  // A PINT jurisdiction or Croatia writes its own codes and fields on top (formats/pint, formats/hr).
  return definition.adapt ? definition.adapt(document, prepared) : document;
}

function toParty(party: Party): EParty {
  return {
    name: party.name,
    address: toAddress(party),
    vatId: party.vat_id,
    taxRegistration: present(party.tax_id),
    contactName: party.contact_name,
    phone: present(party.phone),
    email: party.email,
    electronicAddress: party.electronic_address,
    legalRegistration: party.legal_registration
      ? { scheme: party.legal_registration.scheme, id: party.legal_registration.id }
      : undefined,
  };
}

/**
 * The structured address when any part is given; otherwise the free-text `address`, one line per
 * line (the third and later joined), as EN 16931 has address lines but no free-text address.
 */
function toAddress(party: Party): EAddress {
  const structured = party.street !== undefined || party.city !== undefined || party.postal_code !== undefined;
  const textLines = structured
    ? []
    : (party.address ?? '')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
  const lines = structured
    ? [party.street].filter((line): line is string => line !== undefined)
    : textLines.length > 2
      ? [textLines[0]!, textLines[1]!, textLines.slice(2).join(', ')]
      : textLines;
  return {
    lines,
    city: party.city,
    postalCode: party.postal_code,
    country: party.country,
    ...(party.country_subdivision !== undefined ? { subdivision: party.country_subdivision } : {}),
  };
}
