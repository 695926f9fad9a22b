/**
 * BT/BG numbers of elements the reader leaves to "other values" (EN 16931-3-2 and -3-3 syntax
 * bindings), matched on the end of the element path. Elements of the EXTENDED profile or of
 * other extensions have none and are listed by their path alone.
 */
const CII: readonly (readonly [string, string])[] = [
  ['ApplicableHeaderTradeAgreement/SellerTradeParty/SpecifiedLegalOrganization/ID', 'BT-30'],
  ['BuyerTradeParty/SpecifiedLegalOrganization/ID', 'BT-47'],
  ['SpecifiedTradeSettlementPaymentMeans/Information', 'BT-82'],
  ['SupplyChainTradeTransaction/ApplicableHeaderTradeDelivery/ShipToTradeParty/ID', 'BT-71'],
  ['TaxCurrencyCode', 'BT-6'],
  ['BusinessProcessSpecifiedDocumentContextParameter/ID', 'BT-23'],
  ['SpecifiedTradeProduct/Description', 'BT-154'],
  ['AdditionalReferencedDocument/ReferenceTypeCode', 'BT-18-1'],
  ['ExemptionReasonCode', 'BT-121'],
  ['DueDateTypeCode', 'BT-8'],
  ['IncludedNote/SubjectCode', 'BT-21'],
];

const UBL: readonly (readonly [string, string])[] = [
  ['AccountingSupplierParty/Party/PartyLegalEntity/CompanyID', 'BT-30'],
  ['AccountingCustomerParty/Party/PartyLegalEntity/CompanyID', 'BT-47'],
  ['InvoicePeriod/DescriptionCode', 'BT-8'],
  ['DocumentCurrencyCode', 'BT-5'],
  ['TaxCurrencyCode', 'BT-6'],
  ['AccountingCost', 'BT-19'],
  ['InvoiceLine/AccountingCost', 'BT-133'],
  ['CreditNoteLine/AccountingCost', 'BT-133'],
  ['OrderLineReference/LineID', 'BT-132'],
  ['Item/Description', 'BT-154'],
  ['Item/OriginCountry/IdentificationCode', 'BT-159'],
  ['PaymentMeans/PaymentID', 'BT-83'],
  ['PaymentMeans/InstructionNote', 'BT-82'],
  ['TaxExemptionReasonCode', 'BT-121'],
  ['TaxExemptionReason', 'BT-120'],
];

export function otherValueBt(syntax: 'cii' | 'ubl', path: string): string | null {
  const table = syntax === 'cii' ? CII : UBL;
  return table.find(([suffix]) => path === suffix || path.endsWith(`/${suffix}`))?.[1] ?? null;
}
