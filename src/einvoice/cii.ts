import type { EAddress, EInvoiceDocument, EParty } from './document.js';
import { el, leaf, serializeXml, type XmlElement } from './xml.js';

/**
 * UN/CEFACT Cross Industry Invoice D16B as the Factur-X 1.0 / ZUGFeRD 2.x EN 16931 profile uses
 * it (guideline urn:cen.eu:en16931:2017), element order as in the Factur-X EN16931 XSD.
 */
const NAMESPACES = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** 2026-11-02 → 20261102 (format 102 of UNTDID 2379). */
const date102 = (isoDate: string) => isoDate.replace(/-/g, '');
const udtDate = (name: string, isoDate: string) =>
  el(name, null, leaf('udt:DateTimeString', date102(isoDate), { format: '102' }));

export function buildCii(doc: EInvoiceDocument): string {
  const root = el(
    'rsm:CrossIndustryInvoice',
    null,
    el(
      'rsm:ExchangedDocumentContext',
      null,
      doc.businessProcess !== undefined &&
        el('ram:BusinessProcessSpecifiedDocumentContextParameter', null, leaf('ram:ID', doc.businessProcess)),
      el('ram:GuidelineSpecifiedDocumentContextParameter', null, leaf('ram:ID', doc.specification)),
    ),
    el(
      'rsm:ExchangedDocument',
      null,
      leaf('ram:ID', doc.number),
      leaf('ram:TypeCode', doc.typeCode),
      udtDate('ram:IssueDateTime', doc.issueDate),
      doc.notes.map((note) =>
        el('ram:IncludedNote', null, leaf('ram:Content', note.content), leaf('ram:SubjectCode', note.subjectCode)),
      ),
    ),
    el(
      'rsm:SupplyChainTradeTransaction',
      null,
      doc.lines.map(lineItem),
      agreement(doc),
      delivery(doc),
      settlement(doc),
    ),
  );
  return serializeXml(root, NAMESPACES);
}

function lineItem(line: EInvoiceDocument['lines'][number]): XmlElement {
  return el(
    'ram:IncludedSupplyChainTradeLineItem',
    null,
    el('ram:AssociatedDocumentLineDocument', null, leaf('ram:LineID', line.id)),
    el('ram:SpecifiedTradeProduct', null, leaf('ram:SellerAssignedID', line.itemCode), leaf('ram:Name', line.name)),
    el(
      'ram:SpecifiedLineTradeAgreement',
      null,
      el('ram:NetPriceProductTradePrice', null, leaf('ram:ChargeAmount', line.price)),
    ),
    el('ram:SpecifiedLineTradeDelivery', null, leaf('ram:BilledQuantity', line.quantity, { unitCode: line.unitCode })),
    el(
      'ram:SpecifiedLineTradeSettlement',
      null,
      el(
        'ram:ApplicableTradeTax',
        null,
        leaf('ram:TypeCode', 'VAT'),
        leaf('ram:CategoryCode', line.category),
        leaf('ram:RateApplicablePercent', line.rate),
      ),
      el('ram:SpecifiedTradeSettlementLineMonetarySummation', null, leaf('ram:LineTotalAmount', line.net)),
    ),
  );
}

function agreement(doc: EInvoiceDocument): XmlElement {
  return el(
    'ram:ApplicableHeaderTradeAgreement',
    null,
    leaf('ram:BuyerReference', doc.buyerReference),
    party('ram:SellerTradeParty', doc.seller),
    party('ram:BuyerTradeParty', doc.buyer),
    doc.orderReference !== undefined &&
      el('ram:BuyerOrderReferencedDocument', null, leaf('ram:IssuerAssignedID', doc.orderReference)),
  );
}

function party(name: string, value: EParty): XmlElement {
  const contact = value.contactName ?? value.phone ?? value.email;
  return el(
    name,
    null,
    leaf('ram:Name', value.name),
    value.legalRegistration !== undefined &&
      el(
        'ram:SpecifiedLegalOrganization',
        null,
        leaf('ram:ID', value.legalRegistration.id, { schemeID: value.legalRegistration.scheme }),
      ),
    contact !== undefined &&
      el(
        'ram:DefinedTradeContact',
        null,
        leaf('ram:PersonName', value.contactName),
        value.phone !== undefined &&
          el('ram:TelephoneUniversalCommunication', null, leaf('ram:CompleteNumber', value.phone)),
        value.email !== undefined && el('ram:EmailURIUniversalCommunication', null, leaf('ram:URIID', value.email)),
      ),
    address(value.address),
    value.electronicAddress !== undefined &&
      el(
        'ram:URIUniversalCommunication',
        null,
        leaf('ram:URIID', value.electronicAddress.id, { schemeID: value.electronicAddress.scheme }),
      ),
    value.vatId !== undefined &&
      el('ram:SpecifiedTaxRegistration', null, leaf('ram:ID', value.vatId, { schemeID: 'VA' })),
    value.taxRegistration !== undefined &&
      el('ram:SpecifiedTaxRegistration', null, leaf('ram:ID', value.taxRegistration, { schemeID: 'FC' })),
  );
}

function address(value: EAddress): XmlElement {
  return el(
    'ram:PostalTradeAddress',
    null,
    leaf('ram:PostcodeCode', value.postalCode),
    leaf('ram:LineOne', value.lines[0]),
    leaf('ram:LineTwo', value.lines[1]),
    leaf('ram:LineThree', value.lines[2]),
    leaf('ram:CityName', value.city),
    leaf('ram:CountryID', value.country),
  );
}

function delivery(doc: EInvoiceDocument): XmlElement {
  const to = doc.delivery;
  return el(
    'ram:ApplicableHeaderTradeDelivery',
    null,
    to?.party && el('ram:ShipToTradeParty', null, leaf('ram:Name', to.party.name), address(to.party.address)),
    to?.date !== undefined &&
      el('ram:ActualDeliverySupplyChainEvent', null, udtDate('ram:OccurrenceDateTime', to.date)),
  );
}

function settlement(doc: EInvoiceDocument): XmlElement {
  const means = doc.paymentMeans;
  const { totals } = doc;
  return el(
    'ram:ApplicableHeaderTradeSettlement',
    null,
    leaf('ram:PaymentReference', doc.paymentReference),
    leaf('ram:InvoiceCurrencyCode', doc.currency),
    means &&
      el(
        'ram:SpecifiedTradeSettlementPaymentMeans',
        null,
        leaf('ram:TypeCode', means.code),
        means.iban !== undefined &&
          el(
            'ram:PayeePartyCreditorFinancialAccount',
            null,
            leaf('ram:IBANID', means.iban),
            leaf('ram:AccountName', means.accountName),
          ),
        means.bic !== undefined &&
          el('ram:PayeeSpecifiedCreditorFinancialInstitution', null, leaf('ram:BICID', means.bic)),
      ),
    doc.breakdown.map((group) =>
      el(
        'ram:ApplicableTradeTax',
        null,
        leaf('ram:CalculatedAmount', group.tax),
        leaf('ram:TypeCode', 'VAT'),
        leaf('ram:ExemptionReason', group.exemptionReason),
        leaf('ram:BasisAmount', group.basis),
        leaf('ram:CategoryCode', group.category),
        leaf('ram:ExemptionReasonCode', group.exemptionCode),
        leaf('ram:RateApplicablePercent', group.rate),
      ),
    ),
    doc.invoicingPeriod &&
      el(
        'ram:BillingSpecifiedPeriod',
        null,
        udtDate('ram:StartDateTime', doc.invoicingPeriod.start),
        udtDate('ram:EndDateTime', doc.invoicingPeriod.end),
      ),
    doc.allowances.map((allowance) =>
      el(
        'ram:SpecifiedTradeAllowanceCharge',
        null,
        el('ram:ChargeIndicator', null, leaf('udt:Indicator', 'false')),
        leaf('ram:ActualAmount', allowance.amount),
        leaf('ram:ReasonCode', '95'),
        leaf('ram:Reason', 'Discount'),
        el(
          'ram:CategoryTradeTax',
          null,
          leaf('ram:TypeCode', 'VAT'),
          leaf('ram:CategoryCode', allowance.category),
          leaf('ram:RateApplicablePercent', allowance.rate),
        ),
      ),
    ),
    (doc.paymentTerms !== undefined || doc.dueDate !== undefined) &&
      el(
        'ram:SpecifiedTradePaymentTerms',
        null,
        leaf('ram:Description', doc.paymentTerms),
        doc.dueDate !== undefined && udtDate('ram:DueDateDateTime', doc.dueDate),
      ),
    el(
      'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
      null,
      leaf('ram:LineTotalAmount', totals.lineTotal),
      leaf('ram:AllowanceTotalAmount', totals.allowanceTotal),
      leaf('ram:TaxBasisTotalAmount', totals.taxBasis),
      leaf('ram:TaxTotalAmount', totals.taxTotal, { currencyID: doc.currency }),
      leaf('ram:RoundingAmount', totals.rounding),
      leaf('ram:GrandTotalAmount', totals.grandTotal),
      leaf('ram:TotalPrepaidAmount', totals.prepaid),
      leaf('ram:DuePayableAmount', totals.duePayable),
    ),
    doc.preceding &&
      el(
        'ram:InvoiceReferencedDocument',
        null,
        leaf('ram:IssuerAssignedID', doc.preceding.number),
        doc.preceding.issueDate !== undefined &&
          el(
            'ram:FormattedIssueDateTime',
            null,
            leaf('qdt:DateTimeString', date102(doc.preceding.issueDate), { format: '102' }),
          ),
      ),
  );
}
