import type { EAddress, EInvoiceDocument, EParty, ENote } from './document.js';
import { el, leaf, serializeXml, type XmlElement } from './xml.js';

/**
 * OASIS UBL 2.1 Invoice, or CreditNote for a credit note, with the EN 16931 customization id;
 * element order as in the UBL 2.1 XSDs (where Invoice and CreditNote differ, noted below).
 */
const CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';

export function buildUbl(doc: EInvoiceDocument): string {
  const credit = doc.creditNote;
  const money = (name: string, value: string | undefined) => leaf(name, value, { currencyID: doc.currency });
  const taxScheme = () => el('cac:TaxScheme', null, leaf('cbc:ID', doc.taxScheme));
  const { totals, extra } = doc;
  const taxCurrency = extra?.taxCurrency;
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
    leaf('cbc:TaxCurrencyCode', taxCurrency?.code),
    leaf('cbc:BuyerReference', doc.buyerReference),
    doc.invoicingPeriod &&
      el(
        'cac:InvoicePeriod',
        null,
        leaf('cbc:StartDate', doc.invoicingPeriod.start),
        leaf('cbc:EndDate', doc.invoicingPeriod.end),
      ),
    credit &&
      extra?.creditNoteReason !== undefined &&
      el('cac:DiscrepancyResponse', null, leaf('cbc:ResponseCode', extra.creditNoteReason)),
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
    el(
      'cac:AccountingSupplierParty',
      null,
      party(doc.seller, doc.taxScheme),
      extra?.operator &&
        el('cac:SellerContact', null, leaf('cbc:ID', extra.operator.id), leaf('cbc:Name', extra.operator.name)),
    ),
    el('cac:AccountingCustomerParty', null, party(doc.buyer, doc.taxScheme)),
    doc.delivery &&
      el(
        'cac:Delivery',
        null,
        leaf('cbc:ActualDeliveryDate', doc.delivery.date),
        doc.delivery.party && el('cac:DeliveryLocation', null, address('cac:Address', doc.delivery.party.address)),
        doc.delivery.party?.name !== undefined &&
          el('cac:DeliveryParty', null, el('cac:PartyName', null, leaf('cbc:Name', doc.delivery.party.name))),
      ),
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
        money('cbc:Amount', allowance.amount),
        el(
          'cac:TaxCategory',
          null,
          leaf('cbc:ID', allowance.categoryCode),
          leaf('cbc:Percent', allowance.rate),
          taxScheme(),
        ),
      ),
    ),
    !credit && taxExchangeRate(doc),
    el(
      'cac:TaxTotal',
      null,
      money('cbc:TaxAmount', totals.taxTotal),
      doc.breakdown.map((group) =>
        el(
          'cac:TaxSubtotal',
          null,
          money('cbc:TaxableAmount', group.basis),
          money('cbc:TaxAmount', group.tax),
          el(
            'cac:TaxCategory',
            null,
            leaf('cbc:ID', group.categoryCode),
            leaf('cbc:Percent', group.rate),
            leaf('cbc:TaxExemptionReasonCode', group.exemptionCode),
            leaf('cbc:TaxExemptionReason', group.exemptionReason),
            taxScheme(),
          ),
        ),
      ),
    ),
    // BT-111: the VAT total in the tax currency, a TaxTotal of its own without breakdown.
    taxCurrency &&
      el('cac:TaxTotal', null, leaf('cbc:TaxAmount', taxCurrency.taxTotal, { currencyID: taxCurrency.code })),
    el(
      'cac:LegalMonetaryTotal',
      null,
      money('cbc:LineExtensionAmount', totals.lineTotal),
      money('cbc:TaxExclusiveAmount', totals.taxBasis),
      money('cbc:TaxInclusiveAmount', totals.grandTotal),
      money('cbc:AllowanceTotalAmount', totals.allowanceTotal),
      money('cbc:PrepaidAmount', totals.prepaid),
      money('cbc:PayableAmount', totals.duePayable),
    ),
    doc.lines.map((line) =>
      el(
        credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
        null,
        leaf('cbc:ID', line.id),
        leaf(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', line.quantity, { unitCode: line.unitCode }),
        money('cbc:LineExtensionAmount', line.net),
        el(
          'cac:Item',
          null,
          leaf('cbc:Description', line.extra?.description),
          leaf('cbc:Name', line.name),
          line.itemCode !== undefined && el('cac:SellersItemIdentification', null, leaf('cbc:ID', line.itemCode)),
          line.extra?.classification &&
            el(
              'cac:CommodityClassification',
              null,
              leaf('cbc:CommodityCode', line.extra.commodityType),
              leaf('cbc:ItemClassificationCode', line.extra.classification.code, {
                listID: line.extra.classification.scheme,
              }),
            ),
          el(
            'cac:ClassifiedTaxCategory',
            null,
            leaf('cbc:ID', line.categoryCode),
            leaf('cbc:Name', line.extra?.taxName),
            leaf('cbc:Percent', line.rate),
            leaf('cbc:TaxExemptionReasonCode', line.extra?.exemptionCode),
            leaf('cbc:TaxExemptionReason', line.extra?.exemptionReason),
            taxScheme(),
          ),
        ),
        el(
          'cac:Price',
          null,
          money('cbc:PriceAmount', line.price),
          line.extra?.grossPrice && leaf('cbc:BaseQuantity', '1', { unitCode: line.unitCode }),
          line.extra?.grossPrice &&
            el(
              'cac:AllowanceCharge',
              null,
              leaf('cbc:ChargeIndicator', 'false'),
              money('cbc:Amount', '0'),
              money('cbc:BaseAmount', line.price),
            ),
        ),
        line.extra?.amountWithTax !== undefined &&
          el(
            'cac:ItemPriceExtension',
            null,
            money('cbc:Amount', line.extra.amountWithTax),
            line.extra.tax !== undefined && el('cac:TaxTotal', null, money('cbc:TaxAmount', line.extra.tax)),
          ),
      ),
    ),
  );
  return serializeXml(root, {
    '': credit
      ? 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2'
      : 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    cac: CAC,
    cbc: CBC,
  });
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
