import type { EAddress, EInvoiceDocument, EParty } from './document.js';
import type { ENote } from './legalNotes.js';
import { el, leaf, serializeXml, type XmlChild, type XmlElement } from './xml.js';

/**
 * OASIS UBL 2.1 Invoice, or CreditNote for a credit note, with the EN 16931 customization id;
 * element order as in the UBL 2.1 XSDs (where Invoice and CreditNote differ, noted below).
 */
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

type ELine = EInvoiceDocument['lines'][number];

export function buildUbl(doc: EInvoiceDocument): string {
  const credit = doc.creditNote;
  const { extra } = doc;
  const root = el(
    credit ? 'CreditNote' : 'Invoice',
    null,
    leaf('cbc:CustomizationID', doc.specification),
    leaf('cbc:ProfileID', doc.businessProcess),
    leaf('cbc:ProfileExecutionID', extra?.transactionType),
    leaf('cbc:ID', doc.number),
    leaf('cbc:UUID', extra?.uuid),
    leaf('cbc:IssueDate', doc.issueDate),
    leaf('cbc:IssueTime', extra?.issueTime),
    // UBL 2.1 CreditNote has no DueDate: its BT-9 is PaymentMeans/PaymentDueDate (below).
    !credit && leaf('cbc:DueDate', doc.dueDate),
    leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', doc.typeCode),
    doc.notes.map((note) => leaf('cbc:Note', noteText(note))),
    leaf('cbc:DocumentCurrencyCode', doc.currency),
    leaf('cbc:TaxCurrencyCode', extra?.taxCurrency?.code),
    leaf('cbc:BuyerReference', doc.buyerReference),
    references(doc),
    el(
      'cac:AccountingSupplierParty',
      null,
      party(doc.seller, doc.taxScheme),
      extra?.operator &&
        el('cac:SellerContact', null, leaf('cbc:ID', extra.operator.id), leaf('cbc:Name', extra.operator.name)),
    ),
    el('cac:AccountingCustomerParty', null, party(doc.buyer, doc.taxScheme)),
    delivery(doc),
    paymentMeans(doc),
    doc.paymentTerms !== undefined && el('cac:PaymentTerms', null, leaf('cbc:Note', doc.paymentTerms)),
    // UBL 2.1 CreditNote has the exchange rates before the allowances, Invoice after them.
    credit && taxExchangeRate(doc),
    doc.allowances.map((allowance) =>
      el(
        'cac:AllowanceCharge',
        null,
        leaf('cbc:ChargeIndicator', 'false'),
        leaf('cbc:AllowanceChargeReasonCode', '95'),
        leaf('cbc:AllowanceChargeReason', 'Discount'),
        money(doc, 'cbc:Amount', allowance.amount),
        el(
          'cac:TaxCategory',
          null,
          leaf('cbc:ID', allowance.categoryCode),
          leaf('cbc:Percent', allowance.rate),
          taxScheme(doc),
        ),
      ),
    ),
    !credit && taxExchangeRate(doc),
    taxTotals(doc),
    monetaryTotal(doc),
    doc.lines.map((line) => invoiceLine(doc, line)),
  );
  return serializeXml(root, {
    '': credit
      ? 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'
      : 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    cac: CAC,
    cbc: CBC,
  });
}

/** An amount in the document currency. */
const money = (doc: EInvoiceDocument, name: string, value: string | undefined) =>
  leaf(name, value, { currencyID: doc.currency });

const taxScheme = (doc: EInvoiceDocument) => el('cac:TaxScheme', null, leaf('cbc:ID', doc.taxScheme));

/** BG-14 invoicing period, the UAE's BTAE-03, BT-13 order, BG-3 preceding invoice, and the tax currency's references. */
function references(doc: EInvoiceDocument): XmlChild[] {
  const taxCurrency = doc.extra?.taxCurrency;
  return [
    doc.invoicingPeriod &&
      el(
        'cac:InvoicePeriod',
        null,
        leaf('cbc:StartDate', doc.invoicingPeriod.start),
        leaf('cbc:EndDate', doc.invoicingPeriod.end),
      ),
    // The UAE's credit note reason (BTAE-03); UBL 2.1 Invoice has no DiscrepancyResponse.
    doc.creditNote &&
      doc.extra?.creditNoteReason !== undefined &&
      el('cac:DiscrepancyResponse', null, leaf('cbc:ResponseCode', doc.extra.creditNoteReason)),
    doc.orderReference !== undefined && el('cac:OrderReference', null, leaf('cbc:ID', doc.orderReference)),
    doc.preceding &&
      el(
        'cac:BillingReference',
        null,
        el(
          'cac:InvoiceDocumentReference',
          null,
          leaf('cbc:ID', doc.preceding.number),
          leaf('cbc:IssueDate', doc.preceding.issueDate),
        ),
      ),
    taxCurrency?.references.map((reference) =>
      el(
        'cac:AdditionalDocumentReference',
        null,
        leaf('cbc:ID', taxCurrency.code),
        leaf('cbc:DocumentTypeCode', reference.typeCode),
        leaf('cbc:DocumentDescription', reference.amount),
      ),
    ),
  ];
}

/** BG-13: the delivery date and where to. */
function delivery(doc: EInvoiceDocument): XmlElement | undefined {
  if (!doc.delivery) return undefined;
  const { party: to } = doc.delivery;
  return el(
    'cac:Delivery',
    null,
    leaf('cbc:ActualDeliveryDate', doc.delivery.date),
    to && el('cac:DeliveryLocation', null, address('cac:Address', to.address)),
    to?.name !== undefined && el('cac:DeliveryParty', null, el('cac:PartyName', null, leaf('cbc:Name', to.name))),
  );
}

/** BG-23 VAT breakdown under BT-110, then BT-111 (the VAT total in the tax currency, a TaxTotal of its own without breakdown). */
function taxTotals(doc: EInvoiceDocument): XmlChild[] {
  const taxCurrency = doc.extra?.taxCurrency;
  return [
    el(
      'cac:TaxTotal',
      null,
      money(doc, 'cbc:TaxAmount', doc.totals.taxTotal),
      doc.breakdown.map((group) =>
        el(
          'cac:TaxSubtotal',
          null,
          money(doc, 'cbc:TaxableAmount', group.basis),
          money(doc, 'cbc:TaxAmount', group.tax),
          el(
            'cac:TaxCategory',
            null,
            leaf('cbc:ID', group.categoryCode),
            leaf('cbc:Percent', group.rate),
            leaf('cbc:TaxExemptionReasonCode', group.exemptionCode),
            leaf('cbc:TaxExemptionReason', group.exemptionReason),
            taxScheme(doc),
          ),
        ),
      ),
    ),
    taxCurrency &&
      el('cac:TaxTotal', null, leaf('cbc:TaxAmount', taxCurrency.taxTotal, { currencyID: taxCurrency.code })),
  ];
}

/** BG-22: the document totals. */
function monetaryTotal(doc: EInvoiceDocument): XmlElement {
  const { totals } = doc;
  return el(
    'cac:LegalMonetaryTotal',
    null,
    money(doc, 'cbc:LineExtensionAmount', totals.lineTotal),
    money(doc, 'cbc:TaxExclusiveAmount', totals.taxBasis),
    money(doc, 'cbc:TaxInclusiveAmount', totals.grandTotal),
    money(doc, 'cbc:AllowanceTotalAmount', totals.allowanceTotal),
    money(doc, 'cbc:PrepaidAmount', totals.prepaid),
    money(doc, 'cbc:PayableRoundingAmount', totals.rounding),
    money(doc, 'cbc:PayableAmount', totals.duePayable),
  );
}

/** BG-25: one invoice (or credit note) line. */
function invoiceLine(doc: EInvoiceDocument, line: ELine): XmlElement {
  const credit = doc.creditNote;
  return el(
    credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
    null,
    leaf('cbc:ID', line.id),
    leaf(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', line.quantity, { unitCode: line.unitCode }),
    money(doc, 'cbc:LineExtensionAmount', line.net),
    lineItem(doc, line),
    el(
      'cac:Price',
      null,
      money(doc, 'cbc:PriceAmount', line.price),
      line.extra?.grossPrice && leaf('cbc:BaseQuantity', '1', { unitCode: line.unitCode }),
      line.extra?.grossPrice &&
        el(
          'cac:AllowanceCharge',
          null,
          leaf('cbc:ChargeIndicator', 'false'),
          money(doc, 'cbc:Amount', '0'),
          money(doc, 'cbc:BaseAmount', line.price),
        ),
    ),
    line.extra?.amountWithTax !== undefined &&
      el(
        'cac:ItemPriceExtension',
        null,
        money(doc, 'cbc:Amount', line.extra.amountWithTax),
        line.extra.tax !== undefined && el('cac:TaxTotal', null, money(doc, 'cbc:TaxAmount', line.extra.tax)),
      ),
  );
}

/** BG-31: the item, its classification and its VAT category. */
function lineItem(doc: EInvoiceDocument, line: ELine): XmlElement {
  const { extra } = line;
  return el(
    'cac:Item',
    null,
    leaf('cbc:Description', extra?.description),
    leaf('cbc:Name', line.name),
    line.itemCode !== undefined && el('cac:SellersItemIdentification', null, leaf('cbc:ID', line.itemCode)),
    extra?.classification &&
      el(
        'cac:CommodityClassification',
        null,
        leaf('cbc:CommodityCode', extra.commodityType),
        leaf('cbc:ItemClassificationCode', extra.classification.code, { listID: extra.classification.scheme }),
      ),
    el(
      'cac:ClassifiedTaxCategory',
      null,
      leaf('cbc:ID', line.categoryCode),
      leaf('cbc:Name', extra?.taxName),
      leaf('cbc:Percent', line.rate),
      leaf('cbc:TaxExemptionReasonCode', extra?.exemptionCode),
      leaf('cbc:TaxExemptionReason', extra?.exemptionReason),
      taxScheme(doc),
    ),
  );
}

/** BT-6's exchange rate, where the profile writes it (the UAE). */
function taxExchangeRate(doc: EInvoiceDocument): XmlElement | undefined {
  const taxCurrency = doc.extra?.taxCurrency;
  if (!taxCurrency?.writeRate) return undefined;
  return el(
    'cac:TaxExchangeRate',
    null,
    leaf('cbc:SourceCurrencyCode', doc.currency),
    leaf('cbc:TargetCurrencyCode', taxCurrency.code),
    leaf('cbc:CalculationRate', taxCurrency.rate),
    leaf('cbc:MathematicOperatorCode', 'Multiply'),
  );
}

/**
 * BG-16. A credit note's due date has no other place in UBL 2.1, so a credit note with a due date
 * and no bank account gets payment means 1 ("instrument not defined") to carry it.
 */
function paymentMeans(doc: EInvoiceDocument): XmlElement | undefined {
  const means = doc.paymentMeans;
  const dueDate = doc.creditNote ? doc.dueDate : undefined;
  if (!means && dueDate === undefined) return undefined;
  return el(
    'cac:PaymentMeans',
    null,
    leaf('cbc:PaymentMeansCode', means?.code ?? '1'),
    leaf('cbc:PaymentDueDate', dueDate),
    leaf('cbc:PaymentID', means ? doc.paymentReference : undefined),
    means?.iban !== undefined &&
      el(
        'cac:PayeeFinancialAccount',
        null,
        leaf('cbc:ID', means.iban),
        leaf('cbc:Name', means.accountName),
        means.bic !== undefined && el('cac:FinancialInstitutionBranch', null, leaf('cbc:ID', means.bic)),
      ),
  );
}

/** UBL has no subject code element: Peppol and France write it as "#PMT#text". */
const noteText = (note: ENote) =>
  note.subjectCode === undefined ? note.content : `#${note.subjectCode}#${note.content}`;

function party(value: EParty, scheme: string): XmlElement {
  const contact = value.contactName ?? value.phone ?? value.email;
  return el(
    'cac:Party',
    null,
    value.electronicAddress !== undefined &&
      leaf('cbc:EndpointID', value.electronicAddress.id, { schemeID: value.electronicAddress.scheme }),
    address('cac:PostalAddress', value.address),
    value.vatId !== undefined &&
      el(
        'cac:PartyTaxScheme',
        null,
        leaf('cbc:CompanyID', value.vatId),
        el('cac:TaxScheme', null, leaf('cbc:ID', scheme)),
      ),
    // BT-32: a tax registration other than VAT, told apart by a scheme id other than VAT.
    value.taxRegistration !== undefined &&
      el(
        'cac:PartyTaxScheme',
        null,
        leaf('cbc:CompanyID', value.taxRegistration),
        el('cac:TaxScheme', null, leaf('cbc:ID', 'FC')),
      ),
    el(
      'cac:PartyLegalEntity',
      null,
      leaf('cbc:RegistrationName', value.name),
      value.legalRegistration !== undefined &&
        leaf('cbc:CompanyID', value.legalRegistration.id, {
          schemeID: value.legalRegistration.scheme,
          schemeAgencyID: value.legalRegistration.agency,
          schemeAgencyName: value.legalRegistration.agencyName,
        }),
    ),
    contact !== undefined &&
      el(
        'cac:Contact',
        null,
        leaf('cbc:Name', value.contactName),
        leaf('cbc:Telephone', value.phone),
        leaf('cbc:ElectronicMail', value.email),
      ),
  );
}

function address(name: string, value: EAddress): XmlElement {
  return el(
    name,
    null,
    leaf('cbc:StreetName', value.lines[0]),
    leaf('cbc:AdditionalStreetName', value.lines[1]),
    leaf('cbc:CityName', value.city),
    leaf('cbc:PostalZone', value.postalCode),
    leaf('cbc:CountrySubentity', value.subdivision),
    value.lines[2] !== undefined && el('cac:AddressLine', null, leaf('cbc:Line', value.lines[2])),
    value.country !== undefined && el('cac:Country', null, leaf('cbc:IdentificationCode', value.country)),
  );
}
