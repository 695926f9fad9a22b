import type { CiiBinding } from '../../inbound/readCii.js';

/**
 * ZUGFeRD 1.0 (urn:ferd:CrossIndustryDocument:invoice:1p0, the CII D13B schema of 2014) as a
 * binding of the CII mapping: the same business terms at the same places, under the older names
 * of their aggregates. Each entry is a CII D16B element name that readCii asks for and the name
 * ZUGFeRD 1.0 gives it (from the ZUGFeRD 1.0 schema and its corpus,
 * ../shared/einvoice/corpus/zugferd1); every name not listed is the same in both.
 */
export const ZUGFERD1_NAMES: Readonly<Record<string, string>> = {
  ExchangedDocumentContext: 'SpecifiedExchangedDocumentContext',
  ExchangedDocument: 'HeaderExchangedDocument',
  SupplyChainTradeTransaction: 'SpecifiedSupplyChainTradeTransaction',
  ApplicableHeaderTradeAgreement: 'ApplicableSupplyChainTradeAgreement',
  ApplicableHeaderTradeDelivery: 'ApplicableSupplyChainTradeDelivery',
  ApplicableHeaderTradeSettlement: 'ApplicableSupplyChainTradeSettlement',
  SpecifiedLineTradeAgreement: 'SpecifiedSupplyChainTradeAgreement',
  SpecifiedLineTradeDelivery: 'SpecifiedSupplyChainTradeDelivery',
  SpecifiedLineTradeSettlement: 'SpecifiedSupplyChainTradeSettlement',
  // One summation element serves the header (BT-106…115) and each line (BT-131).
  SpecifiedTradeSettlementHeaderMonetarySummation: 'SpecifiedTradeSettlementMonetarySummation',
  SpecifiedTradeSettlementLineMonetarySummation: 'SpecifiedTradeSettlementMonetarySummation',
  RateApplicablePercent: 'ApplicablePercent',
  // Referenced documents (BT-12, 13, 17, 18, 25, line BT-128) carry their number as ram:ID.
  IssuerAssignedID: 'ID',
  FormattedIssueDateTime: 'IssueDateTime',
};

export const ZUGFERD1_BINDING: CiiBinding = {
  syntax: 'zugferd1',
  document: 'CrossIndustryDocument',
  label: 'ZUGFeRD 1.0',
  names: ZUGFERD1_NAMES,
};
