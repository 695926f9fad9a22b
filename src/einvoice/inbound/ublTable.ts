import { otherValueBt } from './otherValueBt.js';
import { schemed } from './reader.js';
import { p, type AllowanceTerms, type SyntaxTable } from './syntaxTable.js';

/**
 * OASIS UBL 2.1 Invoice and CreditNote (EN 16931, XRechnung UBL, Peppol BIS 3.0) as a table of
 * the EN 16931-3-2 syntax binding: the inverse of ubl.ts. The two documents differ only in the
 * names of their type code, lines and quantities.
 */
const ALLOWANCE = (each: string): AllowanceTerms => ({
  each: p(each),
  charge: p('ChargeIndicator'),
  amount: p('Amount'),
  base: p('BaseAmount'),
  percent: p('MultiplierFactorNumeric'),
  reason: p('AllowanceChargeReason'),
  reasonCode: p('AllowanceChargeReasonCode'),
  tax: p('TaxCategory'),
});

const HEADER: SyntaxTable['header'] = {
  currency: p('DocumentCurrencyCode'),
  customization: p('CustomizationID'),
  profile: p('ProfileID'),
  typeCode: p('InvoiceTypeCode'),
  number: p('ID'),
  issueDate: p('IssueDate'),
  taxPointDate: p('TaxPointDate'),
  taxCurrency: p('TaxCurrencyCode'),
  // BT-9: the document's due date, else the first payment instruction's.
  dueDate: (r, root) =>
    r.text(root, 'DueDate') ??
    r
      .all(root, 'PaymentMeans')
      .map((means) => r.text(means, 'PaymentDueDate'))
      .find((due) => due !== undefined),
  // BT-83: the first payment instruction's payment id (every one is read).
  paymentReference: (r, root) =>
    r
      .all(root, 'PaymentMeans')
      .map((means) => r.text(means, 'PaymentID'))
      .filter((id) => id !== undefined)[0],
  periodStart: p('InvoicePeriod/StartDate'),
  periodEnd: p('InvoicePeriod/EndDate'),
};

const LINE: SyntaxTable['line'] = {
  each: p('InvoiceLine'),
  id: p('ID'),
  note: p('Note'),
  name: p('Item/Name'),
  description: p('Item/Description'),
  sellerItemId: p('Item/SellersItemIdentification/ID'),
  buyerItemId: p('Item/BuyersItemIdentification/ID'),
  standardItemId: { path: p('Item/StandardItemIdentification/ID'), scheme: 'schemeID' },
  quantity: p('InvoicedQuantity'),
  net: p('LineExtensionAmount'),
  price: p('Price/PriceAmount'),
  baseQuantity: p('Price/BaseQuantity'),
  // BT-148 and BT-147: the price's one allowance (ChargeIndicator false).
  gross: (r, line) => {
    const discount = r.node(line, 'Price', 'AllowanceCharge');
    r.expect(discount, 'false', 'ChargeIndicator');
    return { grossPrice: r.text(discount, 'BaseAmount'), priceDiscount: r.text(discount, 'Amount') };
  },
  tax: p('Item/ClassifiedTaxCategory'),
  allowances: ALLOWANCE('AllowanceCharge'),
  periodStart: p('InvoicePeriod/StartDate'),
  periodEnd: p('InvoicePeriod/EndDate'),
  attributes: { each: p('Item/AdditionalItemProperty'), label: p('Name'), value: p('Value') },
  classifications: {
    each: p('Item/CommodityClassification'),
    code: { path: p('ItemClassificationCode'), scheme: 'listID' },
  },
  facts: [
    ['BT-159', p('Item/OriginCountry/IdentificationCode')],
    ['BT-132', p('OrderLineReference/LineID')],
    ['BT-133', p('AccountingCost')],
  ],
  objects: {
    each: p('DocumentReference'),
    id: { path: p('ID'), scheme: 'schemeID' },
    expect: ['130', p('DocumentTypeCode')],
  },
};

const SHARED: Omit<SyntaxTable, 'document' | 'label' | 'header' | 'line'> = {
  syntax: 'ubl',
  date: (text) => text,
  otherValueBt: (path) => otherValueBt('ubl', path),
  tax: { scheme: p('TaxScheme/ID'), category: p('ID'), rate: p('Percent') },
  notes: {
    each: p('Note'),
    read: (r, note) => {
      r.consume(note);
      return parseUblNote(note?.text ?? '');
    },
  },
  paymentTerms: { each: p('PaymentTerms'), text: p('Note') },
  references: [
    ['BT-10', p('BuyerReference')],
    ['BT-11', p('ProjectReference/ID')],
    ['BT-12', p('ContractDocumentReference/ID')],
    ['BT-13', p('OrderReference/ID')],
    ['BT-14', p('OrderReference/SalesOrderID')],
    ['BT-15', p('ReceiptDocumentReference/ID')],
    ['BT-16', p('DespatchDocumentReference/ID')],
    ['BT-17', p('OriginatorDocumentReference/ID')],
    ['BT-19', p('AccountingCost')],
    ['BT-8', p('InvoicePeriod/DescriptionCode')],
  ],
  preceding: {
    each: p('BillingReference'),
    number: p('InvoiceDocumentReference/ID'),
    date: p('InvoiceDocumentReference/IssueDate'),
  },
  documents: {
    each: p('AdditionalDocumentReference'),
    typeCode: p('DocumentTypeCode'),
    id: p('ID'),
    asReference: { '130': { bt: 'BT-18', schemed: true } },
    description: p('DocumentDescription'),
    binary: p('Attachment/EmbeddedDocumentBinaryObject'),
    uri: p('Attachment/ExternalReference/URI'),
  },
  parties: {
    seller: p('AccountingSupplierParty/Party'),
    buyer: p('AccountingCustomerParty/Party'),
    payee: p('PayeeParty'),
    taxRepresentative: p('TaxRepresentativeParty'),
  },
  party: {
    // BT-27: the registration name, else the party name (BT-28 only beside a registration name).
    name: (r, party) => r.text(party, 'PartyLegalEntity', 'RegistrationName') ?? r.text(party, 'PartyName', 'Name'),
    tradingName: (r, party) =>
      r.text(party, 'PartyLegalEntity', 'RegistrationName') !== undefined
        ? r.text(party, 'PartyName', 'Name')
        : undefined,
    ids: (r, party) =>
      r
        .all(party, 'PartyIdentification')
        .map((identification) => schemed(r, identification, ['ID']) ?? '')
        .filter((id) => id !== ''),
    legalId: { path: p('PartyLegalEntity/CompanyID'), scheme: 'schemeID' },
    legalIssuer: (r, party) => r.attr(r.at(party, p('PartyLegalEntity/CompanyID')), 'schemeAgencyName'),
    registrations: { each: p('PartyTaxScheme'), kind: p('TaxScheme/ID'), id: p('CompanyID'), vat: 'VAT' },
    legalInfo: p('PartyLegalEntity/CompanyLegalForm'),
    endpoint: { path: p('EndpointID'), scheme: 'schemeID' },
    address: p('PostalAddress'),
    contactName: p('Contact/Name'),
    phone: p('Contact/Telephone'),
    email: p('Contact/ElectronicMail'),
  },
  address: {
    lines: [p('StreetName'), p('AdditionalStreetName'), p('AddressLine/Line')],
    city: p('CityName'),
    postalCode: p('PostalZone'),
    subdivision: p('CountrySubentity'),
    country: p('Country/IdentificationCode'),
  },
  delivery: {
    at: [],
    party: p('Delivery'),
    name: p('DeliveryParty/PartyName/Name'),
    locationId: (r, delivery) => schemed(r, delivery, ['DeliveryLocation', 'ID']),
    address: p('DeliveryLocation/Address'),
    date: p('Delivery/ActualDeliveryDate'),
  },
  paymentMeans: {
    each: p('PaymentMeans'),
    code: p('PaymentMeansCode'),
    text: (r, means) => r.attr(r.node(means, 'PaymentMeansCode'), 'name'),
    account: p('PayeeFinancialAccount/ID'),
    accountName: p('PayeeFinancialAccount/Name'),
    bic: p('PayeeFinancialAccount/FinancialInstitutionBranch/ID'),
    card: [p('CardAccount/PrimaryAccountNumberID'), p('CardAccount/NetworkID'), p('CardAccount/HolderName')],
    mandate: p('PaymentMandate/ID'),
    debitedAccount: p('PaymentMandate/PayerFinancialAccount/ID'),
  },
  allowances: [ALLOWANCE('AllowanceCharge')],
  // BT-110: the TaxTotal with the breakdown (else the one in the document currency); the other
  // is BT-111, in the accounting currency.
  taxTotals: (r, root) => {
    const currency = r.text(root, 'DocumentCurrencyCode') ?? '';
    const totals = r.all(root, 'TaxTotal');
    const main =
      totals.find((total) => r.all(total, 'TaxSubtotal').length > 0) ??
      totals.find((total) => r.attr(r.node(total, 'TaxAmount'), 'currencyID') === currency) ??
      totals[0];
    const accounting = r.node(
      totals.find((total) => total !== main),
      'TaxAmount',
    );
    r.consume(accounting);
    return {
      taxTotal: r.text(main, 'TaxAmount'),
      accounting: accounting ? `${accounting.text} ${accounting.attrs.currencyID ?? ''}`.trim() : undefined,
      breakdownFrom: main,
    };
  },
  breakdown: {
    each: p('TaxSubtotal'),
    tax: p('TaxCategory'),
    basis: p('TaxableAmount'),
    amount: p('TaxAmount'),
    exemptionReason: p('TaxExemptionReason'),
    exemptionCode: p('TaxExemptionReasonCode'),
  },
  totals: {
    at: p('LegalMonetaryTotal'),
    lineTotal: p('LineExtensionAmount'),
    allowanceTotal: p('AllowanceTotalAmount'),
    chargeTotal: p('ChargeTotalAmount'),
    taxBasis: p('TaxExclusiveAmount'),
    grandTotal: p('TaxInclusiveAmount'),
    prepaid: p('PrepaidAmount'),
    rounding: p('PayableRoundingAmount'),
    duePayable: p('PayableAmount'),
  },
};

/** The Invoice table; a CreditNote names its type code, lines and quantities its own way. */
function ublTable(document: 'Invoice' | 'CreditNote'): SyntaxTable {
  if (document === 'Invoice') return { ...SHARED, document, label: 'UBL 2.1 Invoice', header: HEADER, line: LINE };
  return {
    ...SHARED,
    document,
    label: 'UBL 2.1 CreditNote',
    header: { ...HEADER, typeCode: p('CreditNoteTypeCode') },
    line: { ...LINE, each: p('CreditNoteLine'), quantity: p('CreditedQuantity') },
  };
}

export const UBL_INVOICE_TABLE = ublTable('Invoice');
export const UBL_CREDIT_NOTE_TABLE = ublTable('CreditNote');

/** XRechnung and ZUGFeRD write a note's subject code (BT-21) as "#AAI#text" inside cbc:Note. */
function parseUblNote(text: string): { subject: string | undefined; text: string } {
  const match = /^#([A-Z]{3})#([\s\S]*)$/.exec(text);
  return match ? { subject: match[1], text: match[2]!.trim() } : { subject: undefined, text };
}
