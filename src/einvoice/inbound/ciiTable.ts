import { otherValueBt } from './otherValueBt.js';
import { readAllowance } from './readSyntax.js';
import { isoDate, withScheme } from './reader.js';
import { p, type AllowanceTerms, type SyntaxTable } from './syntaxTable.js';

/**
 * UN/CEFACT CII D16B (Factur-X / ZUGFeRD MINIMUM to EXTENDED, XRechnung CII) as a table of the
 * EN 16931-3-3 syntax binding: the inverse of cii.ts. The EXTENDED profile's further elements land
 * in other values. ZUGFeRD 1.0 is this table under its own element names
 * (src/einvoice/formats/zugferd1/binding.ts).
 */
const TRANSACTION = 'SupplyChainTradeTransaction';
const AGREEMENT = `${TRANSACTION}/ApplicableHeaderTradeAgreement`;
const DELIVERY = `${TRANSACTION}/ApplicableHeaderTradeDelivery`;
const SETTLEMENT = `${TRANSACTION}/ApplicableHeaderTradeSettlement`;
const SUMS = `${SETTLEMENT}/SpecifiedTradeSettlementHeaderMonetarySummation`;
const CONTEXT = 'ExchangedDocumentContext';
const HEADER = 'ExchangedDocument';
const TERMS = p(`${SETTLEMENT}/SpecifiedTradePaymentTerms`);

const allowances = (each: string): AllowanceTerms => ({
  each: p(each),
  charge: p('ChargeIndicator/Indicator'),
  amount: p('ActualAmount'),
  base: p('BasisAmount'),
  percent: p('CalculationPercent'),
  reason: p('Reason'),
  reasonCode: p('ReasonCode'),
  tax: p('CategoryTradeTax'),
});

const CII_TAX = { scheme: p('TypeCode'), category: p('CategoryCode'), rate: p('RateApplicablePercent') };
/** BT-147: a price allowance, read whole (so marked) though only its amount is shown. */
const PRICE_ALLOWANCE = allowances('');

export const CII_TABLE: SyntaxTable = {
  syntax: 'cii',
  document: 'CrossIndustryInvoice',
  label: 'UN/CEFACT CII',
  date: isoDate,
  otherValueBt: (path) => otherValueBt('cii', path),
  tax: CII_TAX,
  header: {
    currency: p(`${SETTLEMENT}/InvoiceCurrencyCode`),
    customization: p(`${CONTEXT}/GuidelineSpecifiedDocumentContextParameter/ID`),
    profile: p(`${CONTEXT}/BusinessProcessSpecifiedDocumentContextParameter/ID`),
    typeCode: p(`${HEADER}/TypeCode`),
    number: p(`${HEADER}/ID`),
    issueDate: p(`${HEADER}/IssueDateTime/DateTimeString`),
    taxCurrency: p(`${SETTLEMENT}/TaxCurrencyCode`),
    dueDate: (r, root) =>
      r
        .every(root, TERMS)
        .map((term) => isoDate(r.text(term, 'DueDateDateTime', 'DateTimeString')))
        .find((due) => due !== undefined),
    paymentReference: p(`${SETTLEMENT}/PaymentReference`),
    periodStart: p(`${SETTLEMENT}/BillingSpecifiedPeriod/StartDateTime/DateTimeString`),
    periodEnd: p(`${SETTLEMENT}/BillingSpecifiedPeriod/EndDateTime/DateTimeString`),
  },
  notes: {
    each: p(`${HEADER}/IncludedNote`),
    read: (r, note) => ({ subject: r.text(note, 'SubjectCode'), text: r.text(note, 'Content') ?? '' }),
  },
  paymentTerms: { each: TERMS, text: p('Description') },
  references: [
    ['BT-10', p(`${AGREEMENT}/BuyerReference`)],
    ['BT-11', p(`${AGREEMENT}/SpecifiedProcuringProject/ID`)],
    ['BT-12', p(`${AGREEMENT}/ContractReferencedDocument/IssuerAssignedID`)],
    ['BT-13', p(`${AGREEMENT}/BuyerOrderReferencedDocument/IssuerAssignedID`)],
    ['BT-14', p(`${AGREEMENT}/SellerOrderReferencedDocument/IssuerAssignedID`)],
    ['BT-15', p(`${DELIVERY}/ReceivingAdviceReferencedDocument/IssuerAssignedID`)],
    ['BT-16', p(`${DELIVERY}/DespatchAdviceReferencedDocument/IssuerAssignedID`)],
    ['BT-19', p(`${SETTLEMENT}/ReceivableSpecifiedTradeAccountingAccount/ID`)],
    ['BT-90', p(`${SETTLEMENT}/CreditorReferenceID`)],
  ],
  preceding: {
    each: p(`${SETTLEMENT}/InvoiceReferencedDocument`),
    number: p('IssuerAssignedID'),
    date: p('FormattedIssueDateTime/DateTimeString'),
  },
  documents: {
    each: p(`${AGREEMENT}/AdditionalReferencedDocument`),
    typeCode: p('TypeCode'),
    id: p('IssuerAssignedID'),
    asReference: { '50': { bt: 'BT-17', schemed: false }, '130': { bt: 'BT-18', schemed: true } },
    description: p('Name'),
    binary: p('AttachmentBinaryObject'),
    uri: p('URIID'),
  },
  parties: {
    seller: p(`${AGREEMENT}/SellerTradeParty`),
    buyer: p(`${AGREEMENT}/BuyerTradeParty`),
    payee: p(`${SETTLEMENT}/PayeeTradeParty`),
    taxRepresentative: p(`${AGREEMENT}/SellerTaxRepresentativeTradeParty`),
  },
  party: {
    name: p('Name'),
    tradingName: p('SpecifiedLegalOrganization/TradingBusinessName'),
    // BT-29: IDs without a scheme, then global IDs with theirs.
    ids: (r, party) =>
      [
        ...r.all(party, 'ID').map((id) => {
          r.consume(id);
          return id.text;
        }),
        ...r.all(party, 'GlobalID').map((id) => {
          r.consume(id);
          return withScheme(id.text, id.attrs.schemeID) ?? '';
        }),
      ].filter((id) => id !== ''),
    legalId: { path: p('SpecifiedLegalOrganization/ID'), scheme: 'schemeID' },
    registrations: {
      each: p('SpecifiedTaxRegistration'),
      kind: (r, registration) => r.attr(r.node(registration, 'ID'), 'schemeID'),
      id: p('ID'),
      vat: 'VA',
    },
    legalInfo: p('Description'),
    endpoint: { path: p('URIUniversalCommunication/URIID'), scheme: 'schemeID' },
    address: p('PostalTradeAddress'),
    contactName: (r, party) => {
      const contact = r.node(party, 'DefinedTradeContact');
      const parts = [r.text(contact, 'PersonName'), r.text(contact, 'DepartmentName')];
      return parts.filter((part) => part !== undefined).join(', ') || undefined;
    },
    phone: p('DefinedTradeContact/TelephoneUniversalCommunication/CompleteNumber'),
    email: p('DefinedTradeContact/EmailURIUniversalCommunication/URIID'),
  },
  address: {
    lines: [p('LineOne'), p('LineTwo'), p('LineThree')],
    city: p('CityName'),
    postalCode: p('PostcodeCode'),
    subdivision: p('CountrySubDivisionName'),
    country: p('CountryID'),
  },
  delivery: {
    at: p(DELIVERY),
    party: p('ShipToTradeParty'),
    name: p('Name'),
    locationId: (r, party) =>
      [...r.all(party, 'ID'), ...r.all(party, 'GlobalID')].map((id) => {
        r.consume(id);
        return withScheme(id.text, id.attrs.schemeID);
      })[0],
    address: p('PostalTradeAddress'),
    date: p('ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString'),
  },
  paymentMeans: {
    each: p(`${SETTLEMENT}/SpecifiedTradeSettlementPaymentMeans`),
    code: p('TypeCode'),
    text: p('Information'),
    account: (r, means) => {
      const account = r.node(means, 'PayeePartyCreditorFinancialAccount');
      return r.text(account, 'IBANID') ?? r.text(account, 'ProprietaryID');
    },
    accountName: p('PayeePartyCreditorFinancialAccount/AccountName'),
    bic: p('PayeeSpecifiedCreditorFinancialInstitution/BICID'),
    card: [p('ApplicableTradeSettlementFinancialCard/ID'), p('ApplicableTradeSettlementFinancialCard/CardholderName')],
    // BT-89: CII keeps the mandate with the payment terms.
    mandate: (r, _means, root) =>
      r
        .every(root, TERMS)
        .map((term) => r.text(term, 'DirectDebitMandateID'))
        .find((id) => id !== undefined),
    debitedAccount: p('PayerPartyDebtorFinancialAccount/IBANID'),
  },
  allowances: [
    allowances(`${SETTLEMENT}/SpecifiedTradeAllowanceCharge`),
    // EXTENDED's logistics service charges count in the charge total (BT-108) like BG-21 charges.
    {
      each: p(`${SETTLEMENT}/SpecifiedLogisticsServiceCharge`),
      charge: true,
      amount: p('AppliedAmount'),
      reason: p('Description'),
      tax: p('AppliedTradeTax'),
    },
  ],
  taxTotals: (r, root) => {
    const settlement = r.node(root, ...p(SETTLEMENT));
    const totals = r.all(r.node(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation'), 'TaxTotalAmount');
    totals.forEach((node) => r.consume(node));
    const currency = r.text(settlement, 'InvoiceCurrencyCode') ?? '';
    const inCurrency = totals.find((node) => node.attrs.currencyID === undefined || node.attrs.currencyID === currency);
    const accounting = totals.find((node) => node !== inCurrency);
    return {
      taxTotal: inCurrency?.text,
      accounting: accounting ? `${accounting.text} ${accounting.attrs.currencyID ?? ''}`.trim() : undefined,
      breakdownFrom: settlement,
    };
  },
  breakdown: {
    each: p('ApplicableTradeTax'),
    tax: [],
    basis: p('BasisAmount'),
    amount: p('CalculatedAmount'),
    exemptionReason: p('ExemptionReason'),
    exemptionCode: p('ExemptionReasonCode'),
    taxPoint: p('TaxPointDate/DateString'),
    dueDateCode: p('DueDateTypeCode'),
  },
  totals: {
    at: p(SUMS),
    lineTotal: p('LineTotalAmount'),
    allowanceTotal: p('AllowanceTotalAmount'),
    chargeTotal: p('ChargeTotalAmount'),
    taxBasis: p('TaxBasisTotalAmount'),
    grandTotal: p('GrandTotalAmount'),
    prepaid: p('TotalPrepaidAmount'),
    rounding: p('RoundingAmount'),
    duePayable: p('DuePayableAmount'),
  },
  line: {
    each: p(`${TRANSACTION}/IncludedSupplyChainTradeLineItem`),
    id: p('AssociatedDocumentLineDocument/LineID'),
    note: p('AssociatedDocumentLineDocument/IncludedNote/Content'),
    name: p('SpecifiedTradeProduct/Name'),
    description: p('SpecifiedTradeProduct/Description'),
    sellerItemId: p('SpecifiedTradeProduct/SellerAssignedID'),
    buyerItemId: p('SpecifiedTradeProduct/BuyerAssignedID'),
    standardItemId: { path: p('SpecifiedTradeProduct/GlobalID'), scheme: 'schemeID' },
    quantity: p('SpecifiedLineTradeDelivery/BilledQuantity'),
    net: p('SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount'),
    price: p('SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount'),
    baseQuantity: p('SpecifiedLineTradeAgreement/NetPriceProductTradePrice/BasisQuantity'),
    gross: (r, line) => {
      const gross = r.node(line, 'SpecifiedLineTradeAgreement', 'GrossPriceProductTradePrice');
      const discounts = r
        .all(gross, 'AppliedTradeAllowanceCharge')
        .map((charge) => readAllowance(r, charge, PRICE_ALLOWANCE, CII_TAX));
      return {
        grossPrice: r.text(gross, 'ChargeAmount'),
        priceDiscount: discounts.find((discount) => !discount.charge)?.amount,
      };
    },
    grossBaseQuantity: p('SpecifiedLineTradeAgreement/GrossPriceProductTradePrice/BasisQuantity'),
    tax: p('SpecifiedLineTradeSettlement/ApplicableTradeTax'),
    allowances: allowances('SpecifiedLineTradeSettlement/SpecifiedTradeAllowanceCharge'),
    periodStart: p('SpecifiedLineTradeSettlement/BillingSpecifiedPeriod/StartDateTime/DateTimeString'),
    periodEnd: p('SpecifiedLineTradeSettlement/BillingSpecifiedPeriod/EndDateTime/DateTimeString'),
    attributes: {
      each: p('SpecifiedTradeProduct/ApplicableProductCharacteristic'),
      label: p('Description'),
      value: p('Value'),
    },
    classifications: {
      each: p('SpecifiedTradeProduct/DesignatedProductClassification'),
      code: { path: p('ClassCode'), scheme: 'listID' },
    },
    facts: [
      ['BT-159', p('SpecifiedTradeProduct/OriginTradeCountry/ID')],
      ['BT-132', p('SpecifiedLineTradeAgreement/BuyerOrderReferencedDocument/LineID')],
      ['BT-133', p('SpecifiedLineTradeSettlement/ReceivableSpecifiedTradeAccountingAccount/ID')],
      ['BT-128', p('SpecifiedLineTradeSettlement/AdditionalReferencedDocument/IssuerAssignedID')],
    ],
  },
};
