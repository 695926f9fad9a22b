import { INBOUND_LIMITS } from './limits.js';
import type {
  InAddress,
  InAllowanceCharge,
  InAttachment,
  InboundInvoice,
  InLine,
  InParty,
  InPaymentMeans,
} from './model.js';
import { otherValueBt } from './otherValueBt.js';
import { isoDate, Reader, withScheme } from './reader.js';
import { tooManyLines } from './refusals.js';
import type { XNode } from '../../xml/xmlTree.js';

/**
 * A syntax of the CII family read by readCii: its name in the inbound model, and the table from
 * the CII D16B element names readCii asks for to the syntax's own (none for CII D16B itself).
 */
export interface CiiBinding {
  syntax: InboundInvoice['syntax'];
  document: InboundInvoice['document'];
  label: string;
  names?: Readonly<Record<string, string>>;
}

export const CII_D16B: CiiBinding = {
  syntax: 'cii',
  document: 'CrossIndustryInvoice',
  label: 'UN/CEFACT CII',
};

/**
 * UN/CEFACT CII D16B (Factur-X / ZUGFeRD MINIMUM to EXTENDED, XRechnung CII) into the inbound
 * model: the inverse of cii.ts, for every element EN 16931 maps (the CII syntax binding). The
 * EXTENDED profile's further elements land in otherValues. Another binding of the same family
 * (ZUGFeRD 1.0) is read by the same mapping through its table of element names.
 */
export function readCii(root: XNode, binding: CiiBinding = CII_D16B): InboundInvoice {
  const r = new Reader(binding.names);
  const context = r.node(root, 'ExchangedDocumentContext');
  const header = r.node(root, 'ExchangedDocument');
  const transaction = r.node(root, 'SupplyChainTradeTransaction');
  const agreement = r.node(transaction, 'ApplicableHeaderTradeAgreement');
  const delivery = r.node(transaction, 'ApplicableHeaderTradeDelivery');
  const settlement = r.node(transaction, 'ApplicableHeaderTradeSettlement');
  const currency = r.text(settlement, 'InvoiceCurrencyCode') ?? '';
  const date = (node: XNode | undefined, ...path: string[]) => isoDate(r.text(node, ...path, 'DateTimeString'));

  /** BT-95/102/118/151: the category of a tax element whose TypeCode is VAT. */
  const vatCategory = (node: XNode | undefined, ...path: string[]) => {
    r.expect(node, 'VAT', ...path, 'TypeCode');
    return r.text(node, ...path, 'CategoryCode');
  };

  const lineNodes = r.all(transaction, 'IncludedSupplyChainTradeLineItem');
  if (lineNodes.length > INBOUND_LIMITS.lines) throw tooManyLines(lineNodes.length);

  const party = (node: XNode | undefined): InParty | undefined => {
    if (!node) return undefined;
    const legal = r.node(node, 'SpecifiedLegalOrganization');
    const contact = r.node(node, 'DefinedTradeContact');
    const registrations = r.all(node, 'SpecifiedTaxRegistration').map((registration) => ({
      scheme: r.attr(r.node(registration, 'ID'), 'schemeID'),
      id: r.text(registration, 'ID'),
    }));
    const uri = r.node(node, 'URIUniversalCommunication', 'URIID');
    return {
      name: r.text(node, 'Name') ?? '',
      tradingName: r.text(legal, 'TradingBusinessName'),
      ids: [
        ...r.all(node, 'ID').map((id) => {
          r.consume(id);
          return id.text;
        }),
        ...r.all(node, 'GlobalID').map((id) => {
          r.consume(id);
          return withScheme(id.text, id.attrs.schemeID) ?? '';
        }),
      ].filter((id) => id !== ''),
      legalId: withScheme(r.text(legal, 'ID'), r.attr(r.node(legal, 'ID'), 'schemeID')),
      vatId: registrations.find((registration) => registration.scheme === 'VA')?.id,
      taxRegistration: registrations.find((registration) => registration.scheme !== 'VA')?.id,
      legalInfo: r.text(node, 'Description'),
      endpoint: withScheme(r.text(uri), r.attr(uri, 'schemeID')),
      address: address(r.node(node, 'PostalTradeAddress')),
      contactName:
        [r.text(contact, 'PersonName'), r.text(contact, 'DepartmentName')]
          .filter((part) => part !== undefined)
          .join(', ') || undefined,
      phone: r.text(contact, 'TelephoneUniversalCommunication', 'CompleteNumber'),
      email: r.text(contact, 'EmailURIUniversalCommunication', 'URIID'),
    };
  };

  const address = (node: XNode | undefined): InAddress | undefined =>
    node && {
      lines: [r.text(node, 'LineOne'), r.text(node, 'LineTwo'), r.text(node, 'LineThree')].filter(
        (line): line is string => line !== undefined,
      ),
      city: r.text(node, 'CityName'),
      postalCode: r.text(node, 'PostcodeCode'),
      subdivision: r.text(node, 'CountrySubDivisionName'),
      country: r.text(node, 'CountryID'),
    };

  const allowanceCharge = (node: XNode): InAllowanceCharge => ({
    charge: r.text(node, 'ChargeIndicator', 'Indicator') === 'true',
    amount: r.text(node, 'ActualAmount') ?? '0',
    base: r.text(node, 'BasisAmount'),
    percent: r.text(node, 'CalculationPercent'),
    reason: r.text(node, 'Reason'),
    reasonCode: r.text(node, 'ReasonCode'),
    category: vatCategory(node, 'CategoryTradeTax'),
    rate: r.text(node, 'CategoryTradeTax', 'RateApplicablePercent'),
  });

  const lines = lineNodes.map((node): InLine => {
    const doc = r.node(node, 'AssociatedDocumentLineDocument');
    const product = r.node(node, 'SpecifiedTradeProduct');
    const lineAgreement = r.node(node, 'SpecifiedLineTradeAgreement');
    const gross = r.node(lineAgreement, 'GrossPriceProductTradePrice');
    const net = r.node(lineAgreement, 'NetPriceProductTradePrice');
    const quantity = r.node(node, 'SpecifiedLineTradeDelivery', 'BilledQuantity');
    const lineSettlement = r.node(node, 'SpecifiedLineTradeSettlement');
    const tax = r.node(lineSettlement, 'ApplicableTradeTax');
    const globalId = r.node(product, 'GlobalID');
    const priceDiscounts = r.all(gross, 'AppliedTradeAllowanceCharge').map((charge) => allowanceCharge(charge));
    const facts = [
      ...r.all(product, 'ApplicableProductCharacteristic').map((characteristic) => ({
        label: r.text(characteristic, 'Description') ?? '',
        value: r.text(characteristic, 'Value') ?? '',
      })),
      ...r.all(product, 'DesignatedProductClassification').map((classification) => {
        const code = r.node(classification, 'ClassCode');
        return { label: 'BT-158', value: withScheme(r.text(code), r.attr(code, 'listID')) ?? '' };
      }),
      { label: 'BT-159', value: r.text(product, 'OriginTradeCountry', 'ID') ?? '' },
      { label: 'BT-132', value: r.text(lineAgreement, 'BuyerOrderReferencedDocument', 'LineID') ?? '' },
      { label: 'BT-133', value: r.text(lineSettlement, 'ReceivableSpecifiedTradeAccountingAccount', 'ID') ?? '' },
      { label: 'BT-128', value: r.text(lineSettlement, 'AdditionalReferencedDocument', 'IssuerAssignedID') ?? '' },
    ].filter((fact) => fact.value !== '');
    return {
      id: r.text(doc, 'LineID') ?? '',
      note: r.text(doc, 'IncludedNote', 'Content'),
      name: r.text(product, 'Name') ?? '',
      description: r.text(product, 'Description'),
      sellerItemId: r.text(product, 'SellerAssignedID'),
      buyerItemId: r.text(product, 'BuyerAssignedID'),
      standardItemId: withScheme(r.text(globalId), r.attr(globalId, 'schemeID')),
      quantity: r.text(quantity) ?? '0',
      unitCode: r.attr(quantity, 'unitCode'),
      net: r.text(lineSettlement, 'SpecifiedTradeSettlementLineMonetarySummation', 'LineTotalAmount') ?? '0',
      price: r.text(net, 'ChargeAmount') ?? '0',
      baseQuantity: r.text(net, 'BasisQuantity'),
      grossBaseQuantity: r.text(gross, 'BasisQuantity'),
      grossPrice: r.text(gross, 'ChargeAmount'),
      priceDiscount: priceDiscounts.find((discount) => !discount.charge)?.amount,
      category: vatCategory(tax),
      rate: r.text(tax, 'RateApplicablePercent'),
      allowances: r.all(lineSettlement, 'SpecifiedTradeAllowanceCharge').map((charge) => allowanceCharge(charge)),
      periodStart: date(lineSettlement, 'BillingSpecifiedPeriod', 'StartDateTime'),
      periodEnd: date(lineSettlement, 'BillingSpecifiedPeriod', 'EndDateTime'),
      facts,
    };
  });

  const references: { bt: string; value: string | undefined }[] = [
    { bt: 'BT-10', value: r.text(agreement, 'BuyerReference') },
    { bt: 'BT-11', value: r.text(agreement, 'SpecifiedProcuringProject', 'ID') },
    { bt: 'BT-12', value: r.text(agreement, 'ContractReferencedDocument', 'IssuerAssignedID') },
    { bt: 'BT-13', value: r.text(agreement, 'BuyerOrderReferencedDocument', 'IssuerAssignedID') },
    { bt: 'BT-14', value: r.text(agreement, 'SellerOrderReferencedDocument', 'IssuerAssignedID') },
    { bt: 'BT-15', value: r.text(delivery, 'ReceivingAdviceReferencedDocument', 'IssuerAssignedID') },
    { bt: 'BT-16', value: r.text(delivery, 'DespatchAdviceReferencedDocument', 'IssuerAssignedID') },
    { bt: 'BT-19', value: r.text(settlement, 'ReceivableSpecifiedTradeAccountingAccount', 'ID') },
    { bt: 'BT-90', value: r.text(settlement, 'CreditorReferenceID') },
    ...r.all(settlement, 'InvoiceReferencedDocument').flatMap((preceding) => {
      const number = r.text(preceding, 'IssuerAssignedID');
      const issued = isoDate(r.text(preceding, 'FormattedIssueDateTime', 'DateTimeString'));
      return [{ bt: 'BT-25', value: number && (issued ? `${number} (${issued})` : number) }];
    }),
  ];

  const attachments: InAttachment[] = [];
  for (const document of r.all(agreement, 'AdditionalReferencedDocument')) {
    const code = r.text(document, 'TypeCode');
    const id = r.text(document, 'IssuerAssignedID') ?? '';
    if (code === '50') references.push({ bt: 'BT-17', value: id });
    else if (code === '130')
      references.push({ bt: 'BT-18', value: withScheme(id, r.attr(r.node(document, 'IssuerAssignedID'), 'schemeID')) });
    else if (attachments.length < INBOUND_LIMITS.attachments) {
      const binary = r.node(document, 'AttachmentBinaryObject');
      r.consume(binary);
      attachments.push({
        id,
        description: r.text(document, 'Name'),
        filename: binary?.attrs.filename,
        mimeCode: binary?.attrs.mimeCode,
        bytes: binary ? base64Bytes(binary.text) : undefined,
        uri: r.text(document, 'URIID'),
      });
    } else r.consume(document);
  }

  const taxTotals = r.all(r.node(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation'), 'TaxTotalAmount');
  taxTotals.forEach((node) => r.consume(node));
  const inCurrency = taxTotals.find(
    (node) => node.attrs.currencyID === undefined || node.attrs.currencyID === currency,
  );
  const accounting = taxTotals.find((node) => node !== inCurrency);
  const sums = r.node(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const terms = r.all(settlement, 'SpecifiedTradePaymentTerms');
  const deliveryParty = r.node(delivery, 'ShipToTradeParty');
  const deliveryDate = date(delivery, 'ActualDeliverySupplyChainEvent', 'OccurrenceDateTime');
  const breakdown = r.all(settlement, 'ApplicableTradeTax').map((tax) => ({
    category: vatCategory(tax) ?? '',
    rate: r.text(tax, 'RateApplicablePercent'),
    basis: r.text(tax, 'BasisAmount') ?? '0',
    tax: r.text(tax, 'CalculatedAmount') ?? '0',
    exemptionReason: r.text(tax, 'ExemptionReason'),
    exemptionCode: r.text(tax, 'ExemptionReasonCode'),
    taxPoint: isoDate(r.text(tax, 'TaxPointDate', 'DateString')),
    dueDateCode: r.text(tax, 'DueDateTypeCode'),
  }));
  const taxPointDate = breakdown.find((group) => group.taxPoint !== undefined)?.taxPoint;
  const dueDateCode = breakdown.find((group) => group.dueDateCode !== undefined)?.dueDateCode;
  if (dueDateCode !== undefined) references.push({ bt: 'BT-8', value: dueDateCode });

  const paymentMeans = r.all(settlement, 'SpecifiedTradeSettlementPaymentMeans').map((means): InPaymentMeans => {
    const account = r.node(means, 'PayeePartyCreditorFinancialAccount');
    return {
      code: r.text(means, 'TypeCode'),
      text: r.text(means, 'Information'),
      account: r.text(account, 'IBANID') ?? r.text(account, 'ProprietaryID'),
      accountName: r.text(account, 'AccountName'),
      bic: r.text(means, 'PayeeSpecifiedCreditorFinancialInstitution', 'BICID'),
      card:
        [
          r.text(means, 'ApplicableTradeSettlementFinancialCard', 'ID'),
          r.text(means, 'ApplicableTradeSettlementFinancialCard', 'CardholderName'),
        ]
          .filter(Boolean)
          .join(', ') || undefined,
      mandate: terms.map((term) => r.text(term, 'DirectDebitMandateID')).find((id) => id !== undefined),
      debitedAccount: r.text(means, 'PayerPartyDebtorFinancialAccount', 'IBANID'),
    };
  });

  const notes = r
    .all(header, 'IncludedNote')
    .map((note) => ({ subject: r.text(note, 'SubjectCode'), text: r.text(note, 'Content') ?? '' }));

  const invoice: InboundInvoice = {
    syntax: binding.syntax,
    document: binding.document,
    syntaxLabel: binding.label,
    envelope: null,
    customization: r.text(context, 'GuidelineSpecifiedDocumentContextParameter', 'ID') ?? '',
    profile: r.text(context, 'BusinessProcessSpecifiedDocumentContextParameter', 'ID'),
    typeCode: r.text(header, 'TypeCode') ?? '',
    number: r.text(header, 'ID') ?? '',
    issueDate: date(header, 'IssueDateTime') ?? '',
    dueDate: terms.map((term) => date(term, 'DueDateDateTime')).find((due) => due !== undefined),
    taxPointDate,
    currency,
    taxCurrency: r.text(settlement, 'TaxCurrencyCode'),
    notes: notes.filter((note) => note.text !== ''),
    references: references.filter(
      (reference): reference is { bt: string; value: string } =>
        reference.value !== undefined && reference.value !== '',
    ),
    seller: party(r.node(agreement, 'SellerTradeParty')) ?? emptyParty(),
    buyer: party(r.node(agreement, 'BuyerTradeParty')) ?? emptyParty(),
    payee: party(r.node(settlement, 'PayeeTradeParty')),
    taxRepresentative: party(r.node(agreement, 'SellerTaxRepresentativeTradeParty')),
    delivery:
      deliveryParty || deliveryDate
        ? {
            name: r.text(deliveryParty, 'Name'),
            locationId: [...r.all(deliveryParty, 'ID'), ...r.all(deliveryParty, 'GlobalID')].map((id) => {
              r.consume(id);
              return withScheme(id.text, id.attrs.schemeID);
            })[0],
            address: address(r.node(deliveryParty, 'PostalTradeAddress')),
            date: deliveryDate,
          }
        : undefined,
    periodStart: date(settlement, 'BillingSpecifiedPeriod', 'StartDateTime'),
    periodEnd: date(settlement, 'BillingSpecifiedPeriod', 'EndDateTime'),
    paymentMeans,
    paymentReference: r.text(settlement, 'PaymentReference'),
    paymentTerms:
      terms
        .map((term) => r.text(term, 'Description'))
        .filter((text) => text !== undefined)
        .join('\n') || undefined,
    allowances: [
      ...r.all(settlement, 'SpecifiedTradeAllowanceCharge').map((charge) => allowanceCharge(charge)),
      // EXTENDED's logistics service charges count in the charge total (BT-108) like BG-21 charges.
      ...r.all(settlement, 'SpecifiedLogisticsServiceCharge').map((charge) => ({
        charge: true,
        amount: r.text(charge, 'AppliedAmount') ?? '0',
        base: undefined,
        percent: undefined,
        reason: r.text(charge, 'Description'),
        reasonCode: undefined,
        category: vatCategory(charge, 'AppliedTradeTax'),
        rate: r.text(charge, 'AppliedTradeTax', 'RateApplicablePercent'),
      })),
    ],
    breakdown: breakdown.map(({ taxPoint: _taxPoint, dueDateCode: _code, ...group }) => group),
    totals: {
      lineTotal: r.text(sums, 'LineTotalAmount'),
      allowanceTotal: r.text(sums, 'AllowanceTotalAmount'),
      chargeTotal: r.text(sums, 'ChargeTotalAmount'),
      taxBasis: r.text(sums, 'TaxBasisTotalAmount'),
      taxTotal: inCurrency?.text,
      taxTotalAccounting: accounting ? `${accounting.text} ${accounting.attrs.currencyID ?? ''}`.trim() : undefined,
      grandTotal: r.text(sums, 'GrandTotalAmount'),
      prepaid: r.text(sums, 'TotalPrepaidAmount'),
      rounding: r.text(sums, 'RoundingAmount'),
      duePayable: r.text(sums, 'DuePayableAmount'),
    },
    lines,
    attachments,
    otherValues: [],
  };
  invoice.otherValues = r.leftovers(root, (path) => (binding.syntax === 'cii' ? otherValueBt('cii', path) : null));
  return invoice;
}

export function emptyParty(): InParty {
  return {
    name: '',
    tradingName: undefined,
    ids: [],
    legalId: undefined,
    vatId: undefined,
    taxRegistration: undefined,
    legalInfo: undefined,
    endpoint: undefined,
    address: undefined,
    contactName: undefined,
    phone: undefined,
    email: undefined,
  };
}

/** The decoded size of base64 text, without decoding it. */
export function base64Bytes(text: string): number {
  const clean = text.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
