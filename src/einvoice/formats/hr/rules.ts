import { oibOk } from '../../../invoice/partyIdentifiers.js';
import type { Rule } from '../../rules.js';
import { blank, rule } from '../ruleHelpers.js';
import { hrTaxName } from './hrDocument.js';

/**
 * The HR-CIUS 2025 rules (Porezna uprava's schematron 1.0.4, ../shared/einvoice/croatia) a request
 * of this service can break, each with the official rule id and the request field. The KPD code
 * list itself (HR-BR-CL-2, some 5,000 codes) is checked for its shape here and by the official
 * rules in the corpus test.
 */
const when = (failed: boolean, path: string, message: string) => (failed ? [{ path, message }] : []);

const HR_PROCESS = /^(?:P[1-9]|P1[0-2]|P99:.+)$/;
const KPD_CODE = /^[0-9]{2}\.[0-9]{2}\.[0-9]{1,2}$/;
const HR_VAT = (id: string | undefined) => id !== undefined && /^HR[0-9]{11}$/.test(id) && oibOk(id.slice(2));

/** The categories whose lines need the buyer's VAT identifier (HR-BR-S-1, Z-1, E-1, AE-1). */
const BUYER_VAT_CATEGORIES = ['S', 'Z', 'E', 'AE'] as const;

export const HR_RULES: readonly Rule[] = [
  rule('HR-BR-2', 'the issue time (HR-BT-2) is required: issue_time hh:mm:ss', (c) =>
    when(c.invoice.issue_time === undefined, 'issue_time', 'is required on a Croatian e-invoice, hh:mm:ss (HR-BR-2)'),
  ),
  rule('HR-BR-34', 'the process (BT-23) is P1 … P12 or P99:<buyer code>', (c) =>
    when(
      c.invoice.business_process !== undefined && !HR_PROCESS.test(c.invoice.business_process),
      'business_process',
      'must be a Croatian process P1 … P12, or P99:<buyer code> (HR-BR-34)',
    ),
  ),
  rule('HR-BR-37', 'the operator (HR-BT-4) is required: operator { name, oib }', (c) =>
    when(
      c.invoice.operator === undefined,
      'operator',
      'is required: the person issuing the invoice, { "name", "oib" } (HR-BR-37)',
    ),
  ),
  rule('HR-BR-9', "the operator's OIB (HR-BT-5) is valid", (c) =>
    when(
      c.invoice.operator !== undefined && !oibOk(c.invoice.operator.oib),
      'operator.oib',
      'is not a valid OIB: 11 digits with an ISO 7064 MOD 11,10 check digit (HR-BR-9)',
    ),
  ),
  rule('HR-BR-7', "the seller's electronic address (BT-34) is required", (c) =>
    when(
      !c.invoice.seller.electronic_address,
      'seller.electronic_address',
      'is required on a Croatian e-invoice (HR-BR-7)',
    ),
  ),
  rule('HR-BR-10', "the buyer's electronic address (BT-49) is required", (c) =>
    when(
      !c.invoice.buyer.electronic_address,
      'buyer.electronic_address',
      'is required on a Croatian e-invoice (HR-BR-10)',
    ),
  ),
  rule('HR-BR-53', "a Croatian party's VAT identifier is HR and a valid OIB", (c) =>
    (['seller', 'buyer'] as const).flatMap((role) => {
      const party = c.invoice[role];
      return when(
        party.country === 'HR' && party.vat_id !== undefined && !HR_VAT(party.vat_id),
        `${role}.vat_id`,
        'is not HR followed by a valid OIB (11 digits, ISO 7064 MOD 11,10 check digit) (HR-BR-53)',
      );
    }),
  ),
  ...BUYER_VAT_CATEGORIES.map((category) =>
    rule(
      `HR-BR-${category}-1`,
      `lines in category ${category} need the buyer's VAT identifier (BT-48): buyer.vat_id`,
      (c) =>
        when(
          c.categories.has(category) && c.invoice.buyer.vat_id === undefined,
          'buyer.vat_id',
          `is required on a Croatian invoice with category ${category} lines (HR-BR-${category}-1)`,
        ),
    ),
  ),
  rule('HR-BR-25', 'every line names its KPD (CPA) classification: item_classification { scheme: "CG", code }', (c) =>
    c.invoice.line_items.flatMap((line, at) => {
      const classification = line.item_classification;
      if (classification === undefined)
        return [
          {
            path: `line_items[${at}].item_classification`,
            message: 'is required: the KPD (CPA) product code, { "scheme": "CG", "code": "62.10.11" } (HR-BR-25)',
          },
        ];
      return [
        ...when(
          classification.scheme !== 'CG',
          `line_items[${at}].item_classification.scheme`,
          'must be CG (KPD/CPA) on a Croatian e-invoice (HR-BR-25)',
        ),
        ...when(
          !KPD_CODE.test(classification.code),
          `line_items[${at}].item_classification.code`,
          'must be a KPD code such as 62.10.11 (HR-BR-CL-2)',
        ),
      ];
    }),
  ),
  rule('HR-BR-CL-1', 'standard-rated lines use a Croatian VAT rate: 25, 13 or 5 %', (c) =>
    c.totals.lineTax.flatMap((tax, at) => {
      const rate = String(Number(tax.rate.coefficient) / 10 ** tax.rate.scale);
      return when(
        tax.category === 'S' && hrTaxName('S', rate) === undefined,
        `line_items[${at}].tax_rate`,
        `is ${rate} %, which is no Croatian VAT rate (25, 13, 5) (HR-BR-CL-1)`,
      );
    }),
  ),
  rule('HR-BR-36', 'exempt and out-of-scope lines state why: tax_exemption_reason', (c) =>
    when(
      (c.categories.has('E') || c.categories.has('O')) && blank(c.invoice.tax_exemption_reason),
      'tax_exemption_reason',
      'is required for lines in category E or O on a Croatian e-invoice (HR-BR-36)',
    ),
  ),
  rule(
    'HR-BR-26',
    'exempt (E) lines need the HR VAT breakdown extension (HR-BG-2), which this service does not write',
    (c) =>
      c.totals.lineTax.flatMap((tax, at) =>
        when(
          tax.category === 'E',
          `line_items[${at}].tax_category`,
          'is E (exempt), which needs the HR extension HR-BG-2 (HRFISK20Data) that this service does not write yet (HR-BR-26)',
        ),
      ),
  ),
  rule('HR-BR-40', 'the issue date is from 2026-01-01', (c) =>
    when(
      c.invoice.issue_date < '2026-01-01',
      'issue_date',
      'must be 2026-01-01 or later on a Croatian e-invoice (HR-BR-40)',
    ),
  ),
  rule('HR-BR-4', 'an amount due needs the due date (BT-9): due_date', (c) =>
    when(
      c.totals.balanceDue > 0n && c.invoice.due_date === undefined,
      'due_date',
      'is required when an amount is due (HR-BR-4)',
    ),
  ),
  rule('HR-BR-1', 'the invoice number (BT-1) has no whitespace', (c) =>
    when(
      /\s/.test(c.invoice.invoice_number),
      'invoice_number',
      'must not contain spaces on a Croatian e-invoice (HR-BR-1)',
    ),
  ),
  rule('HR-BR-6', 'a preceding invoice reference names its issue date', (c) =>
    when(
      c.invoice.preceding_invoice !== undefined && c.invoice.preceding_invoice.issue_date === undefined,
      'preceding_invoice.issue_date',
      'is required on a Croatian e-invoice (HR-BR-6)',
    ),
  ),
];
