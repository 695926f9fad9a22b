import { defineFormat } from '../format.js';
import { CEN_RULE_SET } from '../identifiers.js';
import { HR_EXAMPLE_REQUEST } from './example.js';
import { adaptHr, HR_DEFAULT_PROCESS, HR_SPECIFICATION } from './hrDocument.js';
import { hrInboundFields } from './inboundFields.js';
import { HR_RULES } from './rules.js';

/** Croatia's HR-CIUS 2025 with the HR extension (eRačun), mandatory for domestic B2B since 2026-01-01; UBL only. */
export const hr = defineFormat({
  id: 'hr',
  title: 'Croatia HR-CIUS 2025 (eRačun)',
  blurb: "Croatia's HR-CIUS 2025 (eRačun), UBL only",
  writes: ['ubl'],
  specification: HR_SPECIFICATION,
  defaultBusinessProcess: HR_DEFAULT_PROCESS,
  ruleSets: [CEN_RULE_SET, 'Porezna uprava HR-CIUS 2025 with the HR extension, schematron 1.0.4 (HR-BR-*)'],
  requiredFields: [
    'issue_time (hh:mm:ss, HR-BT-2)',
    'operator { name, oib } (HR-BT-4, HR-BT-5: the person issuing the invoice and their OIB)',
    'business_process P1 … P12 or P99:<buyer code> (default P1)',
    'seller.electronic_address, buyer.electronic_address (BT-34, BT-49; e.g. scheme 9934 Croatian VAT)',
    'seller.vat_id and, for S, Z and AE lines, buyer.vat_id: HR + the OIB (11 digits, check digit) for Croatian parties',
    'line_items[].item_classification { scheme: "CG", code: KPD code } on every line',
    'VAT rates 25, 13, 5 %; no exempt (E) lines (the HR extension HR-BG-2 they need is not written); due_date when an amount is due; issue_date from 2026-01-01',
  ],
  checks: { rules: HR_RULES },
  reading: {
    recognises: (document) => document.customization.trim() === HR_SPECIFICATION,
    fields: hrInboundFields,
  },
  adapt: adaptHr,
  docs: {
    whatYouGet: "Croatia's eRačun (HR-CIUS 2025 with the HR extension, domestic B2B since 2026-01-01)",
    formats: 'UBL Invoice and CreditNote',
    businessProcess: '`P1` unless given (P1 … P12, P99:<buyer code>)',
  },
  example: HR_EXAMPLE_REQUEST,
});
