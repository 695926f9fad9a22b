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
import { base64Bytes, emptyParty } from './readCii.js';
import { Reader, withScheme } from './reader.js';
import { tooManyLines } from './refusals.js';
import type { XNode } from '../../xml/xmlTree.js';

/**
 * OASIS UBL 2.1 Invoice or CreditNote (EN 16931, XRechnung UBL, Peppol BIS 3.0) into the inbound
 * model: the inverse of ubl.ts, for every element of the EN 16931 UBL syntax binding.
 */
export function readUbl(root: XNode): InboundInvoice {
  const r = new Reader();
  const creditNote = root.name === 'CreditNote';
  const currency = r.text(root, 'DocumentCurrencyCode') ?? '';

  /** BT-95/102/118/151: the category (cbc:ID) of a tax category whose scheme is VAT. */
  const vatCategory = (category: XNode | undefined) => {
    r.expect(category, 'VAT', 'TaxScheme', 'ID');
    return r.text(category, 'ID');
  };

  const lineNodes = r.all(root, creditNote ? 'CreditNoteLine' : 'InvoiceLine');
  if (lineNodes.length > INBOUND_LIMITS.lines) throw tooManyLines(lineNodes.length);

  const address = (node: XNode | undefined): InAddress | undefined =>
    node && {
      lines: [
        r.text(node, 'StreetName'),
        r.text(node, 'AdditionalStreetName'),
        r.text(node, 'AddressLine', 'Line'),
      ].filter((line): line is string => line !== undefined),
      city: r.text(node, 'CityName'),
      postalCode: r.text(node, 'PostalZone'),
      subdivision: r.text(node, 'CountrySubentity'),
      country: r.text(node, 'Country', 'IdentificationCode'),
    };

  const schemed = (node: XNode | undefined) => withScheme(r.text(node), r.attr(node, 'schemeID'));

  const party = (node: XNode | undefined): InParty | undefined => {
    if (!node) return undefined;
    const legal = r.node(node, 'PartyLegalEntity');
    const contact = r.node(node, 'Contact');
    const schemes = r
      .all(node, 'PartyTaxScheme')
      .map((scheme) => ({ kind: r.text(scheme, 'TaxScheme', 'ID'), id: r.text(scheme, 'CompanyID') }));
    const registrationName = r.text(legal, 'RegistrationName');
    const partyName = r.text(node, 'PartyName', 'Name');
    return {
      name: registrationName ?? partyName ?? '',
      tradingName: registrationName !== undefined ? partyName : undefined,
      ids: r
        .all(node, 'PartyIdentification')
        .map((identification) => schemed(r.node(identification, 'ID')) ?? '')
        .filter((id) => id !== ''),
      legalId: schemed(r.node(legal, 'CompanyID')),
      vatId: schemes.find((scheme) => scheme.kind === 'VAT')?.id,
      taxRegistration: schemes.find((scheme) => scheme.kind !== 'VAT')?.id,
      legalInfo: r.text(legal, 'CompanyLegalForm'),
      endpoint: schemed(r.node(node, 'EndpointID')),
      address: address(r.node(node, 'PostalAddress')),
      contactName: r.text(contact, 'Name'),
      phone: r.text(contact, 'Telephone'),
      email: r.text(contact, 'ElectronicMail'),
    };
  };

  const allowanceCharge = (node: XNode): InAllowanceCharge => ({
    charge: r.text(node, 'ChargeIndicator') === 'true',
    amount: r.text(node, 'Amount') ?? '0',
    base: r.text(node, 'BaseAmount'),
    percent: r.text(node, 'MultiplierFactorNumeric'),
    reason: r.text(node, 'AllowanceChargeReason'),
    reasonCode: r.text(node, 'AllowanceChargeReasonCode'),
    category: vatCategory(r.node(node, 'TaxCategory')),
    rate: r.text(node, 'TaxCategory', 'Percent'),
  });

  const lines = lineNodes.map((node): InLine => {
    const item = r.node(node, 'Item');
    const price = r.node(node, 'Price');
    const quantity = r.node(node, creditNote ? 'CreditedQuantity' : 'InvoicedQuantity');
    const tax = r.node(item, 'ClassifiedTaxCategory');
    const priceCharge = r.node(price, 'AllowanceCharge');
    r.expect(priceCharge, 'false', 'ChargeIndicator');
    const facts = [
      ...r
        .all(item, 'AdditionalItemProperty')
        .map((property) => ({ label: r.text(property, 'Name') ?? '', value: r.text(property, 'Value') ?? '' })),
      ...r.all(item, 'CommodityClassification').map((classification) => ({
        label: 'BT-158',
        value: schemed(r.node(classification, 'ItemClassificationCode')) ?? '',
      })),
      { label: 'BT-159', value: r.text(item, 'OriginCountry', 'IdentificationCode') ?? '' },
      { label: 'BT-132', value: r.text(node, 'OrderLineReference', 'LineID') ?? '' },
      { label: 'BT-133', value: r.text(node, 'AccountingCost') ?? '' },
      ...r.all(node, 'DocumentReference').map((reference) => {
        r.expect(reference, '130', 'DocumentTypeCode');
        return { label: 'BT-128', value: schemed(r.node(reference, 'ID')) ?? '' };
      }),
    ].filter((fact) => fact.value !== '');
    return {
      id: r.text(node, 'ID') ?? '',
      note: r.text(node, 'Note'),
      name: r.text(item, 'Name') ?? '',
      description: r.text(item, 'Description'),
      sellerItemId: r.text(item, 'SellersItemIdentification', 'ID'),
      buyerItemId: r.text(item, 'BuyersItemIdentification', 'ID'),
      standardItemId: schemed(r.node(item, 'StandardItemIdentification', 'ID')),
      quantity: r.text(quantity) ?? '0',
      unitCode: r.attr(quantity, 'unitCode'),
      net: r.text(node, 'LineExtensionAmount') ?? '0',
      price: r.text(price, 'PriceAmount') ?? '0',
      baseQuantity: r.text(price, 'BaseQuantity'),
      grossPrice: r.text(priceCharge, 'BaseAmount'),
      priceDiscount: r.text(priceCharge, 'Amount'),
      category: vatCategory(tax),
      rate: r.text(tax, 'Percent'),
      allowances: r.all(node, 'AllowanceCharge').map((charge) => allowanceCharge(charge)),
      periodStart: r.text(node, 'InvoicePeriod', 'StartDate'),
      periodEnd: r.text(node, 'InvoicePeriod', 'EndDate'),
      facts,
    };
  });

  const references: { bt: string; value: string | undefined }[] = [
    { bt: 'BT-10', value: r.text(root, 'BuyerReference') },
    { bt: 'BT-11', value: r.text(root, 'ProjectReference', 'ID') },
    { bt: 'BT-12', value: r.text(root, 'ContractDocumentReference', 'ID') },
    { bt: 'BT-13', value: r.text(root, 'OrderReference', 'ID') },
    { bt: 'BT-14', value: r.text(root, 'OrderReference', 'SalesOrderID') },
    { bt: 'BT-15', value: r.text(root, 'ReceiptDocumentReference', 'ID') },
    { bt: 'BT-16', value: r.text(root, 'DespatchDocumentReference', 'ID') },
    { bt: 'BT-17', value: r.text(root, 'OriginatorDocumentReference', 'ID') },
    { bt: 'BT-19', value: r.text(root, 'AccountingCost') },
    { bt: 'BT-8', value: r.text(root, 'InvoicePeriod', 'DescriptionCode') },
    ...r.all(root, 'BillingReference').map((billing) => {
      const number = r.text(billing, 'InvoiceDocumentReference', 'ID');
      const issued = r.text(billing, 'InvoiceDocumentReference', 'IssueDate');
      return { bt: 'BT-25', value: number && (issued ? `${number} (${issued})` : number) };
    }),
  ];

  const attachments: InAttachment[] = [];
  for (const document of r.all(root, 'AdditionalDocumentReference')) {
    const id = r.text(document, 'ID') ?? '';
    if (r.text(document, 'DocumentTypeCode') === '130') {
      references.push({ bt: 'BT-18', value: schemed(r.node(document, 'ID')) });
    } else if (attachments.length < INBOUND_LIMITS.attachments) {
      const binary = r.node(document, 'Attachment', 'EmbeddedDocumentBinaryObject');
      r.consume(binary);
      attachments.push({
        id,
        description: r.text(document, 'DocumentDescription'),
        filename: binary?.attrs.filename,
        mimeCode: binary?.attrs.mimeCode,
        bytes: binary ? base64Bytes(binary.text) : undefined,
        uri: r.text(document, 'Attachment', 'ExternalReference', 'URI'),
      });
    } else r.consume(document);
  }

  const taxTotals = r.all(root, 'TaxTotal');
  const main =
    taxTotals.find((total) => r.all(total, 'TaxSubtotal').length > 0) ??
    taxTotals.find((total) => r.attr(r.node(total, 'TaxAmount'), 'currencyID') === currency) ??
    taxTotals[0];
  const accounting = taxTotals.find((total) => total !== main);
  const accountingAmount = r.node(accounting, 'TaxAmount');
  const sums = r.node(root, 'LegalMonetaryTotal');
  const deliveryNode = r.node(root, 'Delivery');
  const location = r.node(deliveryNode, 'DeliveryLocation');
  const mandate = (means: XNode) => r.node(means, 'PaymentMandate');

  const paymentMeans = r.all(root, 'PaymentMeans').map((means): InPaymentMeans => {
    const account = r.node(means, 'PayeeFinancialAccount');
    const card = r.node(means, 'CardAccount');
    const code = r.node(means, 'PaymentMeansCode');
    return {
      code: r.text(code),
      text: r.attr(code, 'name'),
      account: r.text(account, 'ID'),
      accountName: r.text(account, 'Name'),
      bic: r.text(account, 'FinancialInstitutionBranch', 'ID'),
      card:
        [r.text(card, 'PrimaryAccountNumberID'), r.text(card, 'NetworkID'), r.text(card, 'HolderName')]
          .filter(Boolean)
          .join(', ') || undefined,
      mandate: r.text(mandate(means), 'ID'),
      debitedAccount: r.text(mandate(means), 'PayerFinancialAccount', 'ID'),
    };
  });
  const paymentIds = r
    .all(root, 'PaymentMeans')
    .map((means) => r.text(means, 'PaymentID'))
    .filter((id) => id !== undefined);
  const dueDate =
    r.text(root, 'DueDate') ??
    r
      .all(root, 'PaymentMeans')
      .map((means) => r.text(means, 'PaymentDueDate'))
      .find((due) => due !== undefined);
  const payee = r.node(root, 'PayeeParty');

  const invoice: InboundInvoice = {
    syntax: 'ubl',
    document: creditNote ? 'CreditNote' : 'Invoice',
    syntaxLabel: creditNote ? 'UBL 2.1 CreditNote' : 'UBL 2.1 Invoice',
    envelope: null,
    customization: r.text(root, 'CustomizationID') ?? '',
    profile: r.text(root, 'ProfileID'),
    typeCode: r.text(root, creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode') ?? '',
    number: r.text(root, 'ID') ?? '',
    issueDate: r.text(root, 'IssueDate') ?? '',
    dueDate,
    taxPointDate: r.text(root, 'TaxPointDate'),
    currency,
    taxCurrency: r.text(root, 'TaxCurrencyCode'),
    notes: r
      .all(root, 'Note')
      .map((note) => {
        r.consume(note);
        return parseUblNote(note.text);
      })
      .filter((note) => note.text !== ''),
    references: references.filter(
      (reference): reference is { bt: string; value: string } =>
        reference.value !== undefined && reference.value !== '',
    ),
    seller: party(r.node(root, 'AccountingSupplierParty', 'Party')) ?? emptyParty(),
    buyer: party(r.node(root, 'AccountingCustomerParty', 'Party')) ?? emptyParty(),
    payee: party(payee),
    taxRepresentative: party(r.node(root, 'TaxRepresentativeParty')),
    delivery: deliveryNode
      ? {
          name: r.text(deliveryNode, 'DeliveryParty', 'PartyName', 'Name'),
          locationId: schemed(r.node(location, 'ID')),
          address: address(r.node(location, 'Address')),
          date: r.text(deliveryNode, 'ActualDeliveryDate'),
        }
      : undefined,
    periodStart: r.text(root, 'InvoicePeriod', 'StartDate'),
    periodEnd: r.text(root, 'InvoicePeriod', 'EndDate'),
    paymentMeans,
    paymentReference: paymentIds[0],
    paymentTerms:
      r
        .all(root, 'PaymentTerms')
        .map((terms) => r.text(terms, 'Note'))
        .filter((note) => note !== undefined)
        .join('\n') || undefined,
    allowances: r.all(root, 'AllowanceCharge').map((charge) => allowanceCharge(charge)),
    breakdown: r.all(main, 'TaxSubtotal').map((subtotal) => {
      const category = r.node(subtotal, 'TaxCategory');
      return {
        category: vatCategory(category) ?? '',
        rate: r.text(category, 'Percent'),
        basis: r.text(subtotal, 'TaxableAmount') ?? '0',
        tax: r.text(subtotal, 'TaxAmount') ?? '0',
        exemptionReason: r.text(category, 'TaxExemptionReason'),
        exemptionCode: r.text(category, 'TaxExemptionReasonCode'),
      };
    }),
    totals: {
      lineTotal: r.text(sums, 'LineExtensionAmount'),
      allowanceTotal: r.text(sums, 'AllowanceTotalAmount'),
      chargeTotal: r.text(sums, 'ChargeTotalAmount'),
      taxBasis: r.text(sums, 'TaxExclusiveAmount'),
      taxTotal: r.text(main, 'TaxAmount'),
      taxTotalAccounting: accountingAmount
        ? (r.consume(accountingAmount), `${accountingAmount.text} ${accountingAmount.attrs.currencyID ?? ''}`.trim())
        : undefined,
      grandTotal: r.text(sums, 'TaxInclusiveAmount'),
      prepaid: r.text(sums, 'PrepaidAmount'),
      rounding: r.text(sums, 'PayableRoundingAmount'),
      duePayable: r.text(sums, 'PayableAmount'),
    },
    lines,
    attachments,
    otherValues: [],
  };
  invoice.otherValues = r.leftovers(root, (path) => otherValueBt('ubl', path));
  return invoice;
}

/** XRechnung and ZUGFeRD write a note's subject code (BT-21) as "#AAI#text" inside cbc:Note. */
function parseUblNote(text: string): { subject: string | undefined; text: string } {
  const match = /^#([A-Z]{3})#([\s\S]*)$/.exec(text);
  return match ? { subject: match[1], text: match[2]!.trim() } : { subject: undefined, text };
}
