import { CII_TABLE } from '../../inbound/ciiTable.js';
import type { AllowanceTerms, SyntaxTable } from '../../inbound/syntaxTable.js';

/**
 * ZUGFeRD 1.0 (urn:ferd:CrossIndustryDocument:invoice:1p0, the CII D13B schema of 2014) as a
 * binding of the CII table (src/einvoice/inbound/ciiTable.ts): the same business terms at the same
 * places, under the older names of their aggregates. Each entry is a CII D16B element name of the
 * table (the Reader looks every name up here, src/einvoice/inbound/reader.ts) and the name
 * ZUGFeRD 1.0 gives it (from the ZUGFeRD 1.0 schema and its corpus,
 * ../shared/einvoice/corpus/zugferd1); every name not listed is the same in both.
 */
const ZUGFERD1_NAMES: Readonly<Record<string, string>> = {
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

/** The CII table under ZUGFeRD 1.0's names; its other values carry no BT numbers (those are D16B paths). */
export const ZUGFERD1_TABLE: SyntaxTable = {
  ...CII_TABLE,
  syntax: 'zugferd1',
  document: 'CrossIndustryDocument',
  label: 'ZUGFeRD 1.0',
  names: ZUGFERD1_NAMES,
  otherValueBt: () => null,
  // Allowances and charges with a basis take its sign (Intarsys' Kostenrechnung writes an allowance
  // of 1077.60 as -21.55, its Rechnungskorrektur one of -5.00 as 0.10; both documents' own totals
  // count them with the basis's sign).
  allowances: CII_TABLE.allowances.map(signOfBase),
  line: { ...CII_TABLE.line, allowances: signOfBase(CII_TABLE.line.allowances) },
};

function signOfBase(terms: AllowanceTerms): AllowanceTerms {
  return terms.base === undefined ? terms : { ...terms, amountSignOfBase: true };
}
