/**
 * The keys of every label catalog (templates/locales/<language>.json; a test checks that each
 * catalog has exactly these). A request's `labels` may override any of them for one invoice,
 * except those in FIXED_LABEL_KEYS.
 */
export const UNIT_CODES_WITH_NAMES = [
  'HUR',
  'MIN',
  'DAY',
  'WEE',
  'MON',
  'ANN',
  'C62',
  'H87',
  'EA',
  'SET',
  'PR',
  'KGM',
  'GRM',
  'TNE',
  'MTR',
  'KMT',
  'MTK',
  'MTQ',
  'LTR',
  'KWH',
  'LS',
] as const;

/** The words of an inbound e-invoice's page (src/render/inboundView.ts); not overridable (that route takes no labels). */
export const INBOUND_LABEL_KEYS = [
  'inbound_visualisation',
  'inbound_unknown_specification',
  'inbound_totals_differ',
  'inbound_document_value',
  'inbound_recomputed_value',
  'inbound_references',
  'inbound_line_details',
  'inbound_allowances_charges',
  'inbound_allowance',
  'inbound_charge',
  'inbound_charges',
  'inbound_attachments',
  'inbound_other_values',
  'inbound_period',
  'inbound_delivery_date',
  'inbound_type_code',
  'inbound_payee',
  'inbound_tax_representative',
  // Terms whose legal name in the document's own language is printed beside them (InboundInvoice.legalTerms).
  'inbound_kind_correction',
  'inbound_kind_advance',
  'inbound_split_payment',
  'inbound_cash_accounting',
  'inbound_self_billing',
  'inbound_exemption_basis',
  // FatturaPA's (its Italian legal names beside: RegimeFiscale, Natura, EsigibilitaIVA).
  'inbound_tax_regime',
  'inbound_vat_nature',
  'inbound_vat_chargeability',
  // Notes on the file (einvoice/inbound/fileDocuments.ts InboundNote), with {placeholders}.
  'inbound_note_unknown_specification',
  'inbound_note_signed',
  'inbound_note_documents_printed',
  'inbound_note_document_of',
  'inbound_note_document_totals',
  // Party identifiers whose scheme has no name of its own (render/inbound/partyIdentifiers.ts).
  'inbound_identifier',
  'inbound_legal_registration',
  // What FatturaPA adds to the amounts (its Italian legal names beside).
  'inbound_withholding',
  'inbound_pension_fund',
  'inbound_stamp_duty',
  'inbound_net_to_pay',
] as const;

export const LABEL_KEYS = [
  // Stamps across the page (the request's `stamp`, src/invoice/designFields.ts).
  'stamp_draft',
  'stamp_paid',
  'stamp_copy',
  'stamp_void',
  'language_name',
  'invoice',
  'credit_note',
  'from',
  'bill_to',
  'ship_to',
  'issue_date',
  'due_date',
  'currency',
  'purchase_order',
  'buyer_reference',
  'preceding_invoice',
  'line_number',
  'description',
  'item_code',
  'quantity',
  'unit_price',
  'line_vat_rate',
  'amount',
  'subtotal',
  'discount',
  'taxable_amount',
  'tax',
  // The VAT total in the tax currency (BT-111) when it differs from the invoice currency; {currency} is its code.
  'tax_currency_total',
  'total_due',
  'total_credit',
  'total',
  'amount_paid',
  'rounding',
  'balance_due',
  'vat_breakdown',
  'vat_category',
  'vat_rate',
  'vat_taxable',
  'vat_amount',
  'category_S',
  'category_Z',
  'category_E',
  'category_AE',
  'category_K',
  'category_G',
  'category_O',
  'exemption_E',
  'exemption_AE',
  'exemption_K',
  'exemption_G',
  'exemption_O',
  'vat_id',
  'tax_id',
  // Japan's qualified-invoice registration number (T + 13 digits), src/render/taxInvoiceMarks.ts.
  'qualified_invoice_registration',
  'contact',
  'payment_details',
  'account_name',
  'iban',
  'bic',
  'payment_reference',
  'payment_instructions',
  'notes',
  'scan_to_pay',
  'page_of',
  ...UNIT_CODES_WITH_NAMES.map((code) => `unit_${code}` as const),
  ...INBOUND_LABEL_KEYS,
] as const;

export type LabelKey = (typeof LABEL_KEYS)[number];
export type LabelCatalog = Record<LabelKey, string>;

/**
 * Not overridable per request: `page_of` is printed from CSS ("Page X of Y" can only come from an
 * @page margin box), where request text must never go; `language_name` is the catalog's own name.
 */
export const FIXED_LABEL_KEYS = ['language_name', 'page_of'] as const satisfies readonly LabelKey[];

export const OVERRIDABLE_LABEL_KEYS = LABEL_KEYS.filter(
  (key): key is Exclude<LabelKey, (typeof FIXED_LABEL_KEYS)[number] | (typeof INBOUND_LABEL_KEYS)[number]> =>
    !(FIXED_LABEL_KEYS as readonly string[]).includes(key) && !(INBOUND_LABEL_KEYS as readonly string[]).includes(key),
);
