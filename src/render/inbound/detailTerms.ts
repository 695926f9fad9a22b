import type { LabelKey } from '../../invoice/labelKeys.js';

/**
 * The words "Further details" prints for a value no section takes, found from its element path
 * (without indexes) and never the path itself: whose value it is (the nearest owner the CONTEXTS
 * know, in their order of precedence) and what it is (the first FIELDS entry whose pattern the
 * path ends with). Both are catalog keys, so the label is in the page's language; the element names
 * are those of UBL, CII, ZUGFeRD 1.0, FA(3) and FatturaPA, the formats the reader takes.
 */
const CONTEXTS: readonly (readonly [RegExp, LabelKey])[] = [
  [/^SubInvoiceLine$/, 'inbound_ctx_sub_line'],
  [/^IncludedReferencedProduct$/, 'inbound_ctx_included_product'],
  [/^(LotIdentification|ItemInstance|NrPartiiTowaru)$/, 'inbound_ctx_lot'],
  [/^FreightAllowanceCharge$/, 'inbound_ctx_freight'],
  [/^ApplicableTradePaymentDiscountTerms$/, 'inbound_ctx_payment_discount'],
  [/^PrepaidPayment$/, 'inbound_ctx_prepaid'],
  [/^RachunekBankowyFaktora$/, 'inbound_ctx_factor'],
  [/^ResultOfVerification$/, 'inbound_ctx_verification'],
  [/^InvoiceeTradeParty$/, 'inbound_ctx_invoicee'],
  [/^(ShipFromTradeParty|WysylkaZ)$/, 'inbound_ctx_ship_from'],
  [/^(ShipToTradeParty|WysylkaDo|DeliveryParty)$/, 'ship_to'],
  [/^(Przewoznik|DatiAnagraficiVettore|CarrierParty)$/, 'inbound_ctx_carrier'],
  [/^Podmiot3$/, 'inbound_ctx_third_party'],
  [/^(PayeeTradeParty|PayeeParty)$/, 'inbound_payee'],
  [/^(SellerTradeParty|AccountingSupplierParty|SellerSupplierParty|Podmiot1|CedentePrestatore)$/, 'inbound_ctx_seller'],
  [
    /^(BuyerTradeParty|AccountingCustomerParty|BuyerCustomerParty|Podmiot2|Podmiot2K|CessionarioCommittente)$/,
    'inbound_ctx_buyer',
  ],
  [/^(DaneFaKorygowanej|BillingReference|InvoiceDocumentReference)$/, 'preceding_invoice'],
  [/^DiscrepancyResponse$/, 'inbound_ctx_correction'],
  [/^FakturaZaliczkowa$/, 'inbound_kind_advance'],
  [
    /^(BuyerOrderReferencedDocument|CustomerOrderReferencedDocument|OrderReference|OrderLineReference|DatiOrdineAcquisto|Zamowienie|ZamowienieWiersz|Zamowienia)$/,
    'purchase_order',
  ],
  [/^(ContractReferencedDocument|ContractDocumentReference|DatiContratto)$/, 'inbound_ctx_contract'],
  [/^DatiConvenzione$/, 'inbound_ctx_agreement'],
  [/^DatiRicezione$/, 'inbound_ctx_receipt'],
  [/^(DeliveryNoteReferencedDocument|DespatchLineReference|DespatchDocumentReference)$/, 'inbound_ctx_delivery_note'],
  [/^SpecifiedProcuringProject$/, 'inbound_ctx_project'],
  [/^(TaxExchangeRate|TaxApplicableTradeCurrencyExchange)$/, 'inbound_ctx_exchange'],
  [/^(TaxTotal|TaxSubtotal|ApplicableTradeTax|ClassifiedTaxCategory|TaxCategory)$/, 'tax'],
  [/^(SpecifiedTradeAllowanceCharge|AppliedTradeAllowanceCharge|AllowanceCharge)$/, 'inbound_allowances_charges'],
  [/^Obciazenia$/, 'inbound_charges'],
  [/^Odliczenia$/, 'inbound_ctx_deductions'],
  [/^PMarzy$/, 'inbound_ctx_margin'],
  [/^(Zalacznik|AdditionalReferencedDocument|AdditionalDocumentReference)$/, 'inbound_attachments'],
  [/^(Stopka|Rejestry)$/, 'inbound_ctx_registers'],
  [/^DatiTrasmissione$/, 'inbound_ctx_transmission'],
  [
    /^(Platnosc|PaymentMeans|SpecifiedTradeSettlementPaymentMeans|SpecifiedTradePaymentTerms|TerminPlatnosci|PaymentTerms)$/,
    'payment_details',
  ],
  [
    /^(Delivery|DatiTrasporto|WarunkiTransakcji|Transport|Shipment|Consignment|DeliveryTerms|ApplicableHeaderTradeDelivery|ApplicableSupplyChainTradeDelivery|SpecifiedLineTradeDelivery|SpecifiedSupplyChainTradeDelivery)$/,
    'inbound_ctx_delivery',
  ],
  [/^(Item|SpecifiedTradeProduct|ApplicableProductCharacteristic)$/, 'inbound_ctx_item'],
  [/^(InvoiceLine|CreditNoteLine|IncludedSupplyChainTradeLineItem|FaWiersz|DettaglioLinee)$/, 'inbound_ctx_line'],
  [/^IncludedNote$/, 'notes'],
  [/^InvoicePeriod$/, 'inbound_period'],
];

/** What the value is: [the end of the path, its word, the owner it belongs to when the path does not say]. */
type Field = readonly [pattern: RegExp, word: LabelKey | { literal: string }, owner?: LabelKey | null];

/** Names a country's readers know as they are (procurement codes, registers, Polish flags). */
const LITERALS = /(?:^|\/)(?:Codice)?(CIG|CUP|KRS|REGON|BDO|GTU|JST|GLN)$/;

const FIELDS: readonly Field[] = [
  [/TestIndicator\/Indicator$/, 'inbound_f_test', null],
  [/TaxIncludedIndicator$/, 'inbound_f_tax_included'],
  [/ChargeIndicator$/, 'inbound_charge'],
  [/(^|\/)Fa\/FP$/, 'inbound_f_receipt_invoice', null],
  [/ZnacznikZaplatyCzesciowej$/, 'inbound_f_partial_payment', 'payment_details'],
  [/Zwolnienie\/P_19$/, 'category_E', 'tax'],
  [/(^|\/)Fa\/WZ$/, 'inbound_f_number', 'inbound_ctx_delivery_note'],
  [/(^|\/)Fa\/(PrzyczynaKorekty)$/, 'inbound_f_reason', 'inbound_ctx_correction'],
  [/(^|\/)Fa\/TypKorekty$/, 'inbound_f_type', 'inbound_ctx_correction'],
  [/(^|\/)Fa\/OkresFaKorygowanej$/, 'inbound_f_period', 'inbound_ctx_correction'],
  [/(^|\/)Fa\/P_15ZK$/, 'amount', 'inbound_ctx_correction'],
  [/StanPrzedZ?$/, 'inbound_ctx_correction'],
  [/LanguageID$/, 'inbound_f_language'],
  [/NrPartiiTowaru$/, 'inbound_f_number', 'inbound_ctx_lot'],
  [/CompanyID$/, 'inbound_legal_registration'],
  [/GermanBankleitzahlID$/, { literal: 'BLZ' }],
  [/FaxUniversalCommunication\/CompleteNumber$/, 'inbound_f_fax'],
  [/(TelephoneUniversalCommunication\/CompleteNumber|Telefon)$/, 'inbound_f_phone'],
  [/(EmailURIUniversalCommunication\/URIID|Email|PECDestinatario)$/, 'inbound_f_email'],
  [/URIUniversalCommunication\/URIID$/, 'inbound_f_electronic_address'],
  [/DepartmentName$/, 'inbound_f_department'],
  [/(PersonName|SellerContact\/ID)$/, 'contact'],
  [
    /(LineOne|LineTwo|LineThree|AdresL1|AdresL2|CityName|PostcodeCode|StreetName|Indirizzo|CAP|Comune)$/,
    'inbound_f_address',
  ],
  [/CountrySubentity(Code)?$/, 'inbound_f_region'],
  [/(CountryID|KodKraju|IdPaese|IdentificationCode)$/, 'inbound_f_country'],
  [/(IdFiscaleIVA\/IdCodice|SpecifiedTaxRegistration\/ID)$/, 'vat_id'],
  [/\/NIP$/, 'tax_id'],
  [/CodiceDestinatario$/, 'inbound_f_recipient_code'],
  [/NrKSeF\w*$/, 'inbound_f_ksef_number'],
  [/(RiferimentoNumeroLinea|LineID|NrWierszaZam)$/, 'inbound_f_line_number'],
  [/(ProgressivoInvio|NumItem|NrFaKorygowanej)$/, 'inbound_f_number'],
  [/(NrKlienta|IDNabywcy)$/, 'inbound_f_customer_number'],
  [/(FinancialInstitution\/Name|NazwaBanku)$/, 'inbound_f_bank'],
  [/FinancialInstitution\/BICID$/, 'bic'],
  [/RachunekWlasnyBanku$/, 'inbound_f_own_bank'],
  [/(NrRB|ProprietaryID|IBANID)$/, 'inbound_f_account'],
  [/(^|\/)(Name|Nazwa|Denominazione|P_7Z|AdditionalItemName|ZKlucz|TKlucz)$/, 'inbound_f_name'],
  [/(TaxAmount|P_11VatZ)$/, 'vat_amount'],
  [/(TaxableAmount|P_11NettoZ|LineTotalBasisAmount)$/, 'taxable_amount'],
  [/AllowanceChargeBasisAmount$/, 'inbound_allowances_charges'],
  [/PerUnitAmount$/, 'inbound_f_per_unit'],
  [/ItemPriceExtension\/Amount$/, 'inbound_f_with_tax'],
  [/(PriceAmount|P_9AZ)$/, 'unit_price'],
  [/(Amount|Kwota|WartoscZamowienia)$/, 'amount'],
  [/(Percent|CalculationRate|ConversionRate|P_12Z)$/, 'vat_rate'],
  [/(TaxCategory|ClassifiedTaxCategory)\/ID$/, 'vat_category'],
  [/(TaxExemptionReasonCode|ExemptionReasonCode)$/, 'inbound_f_code'],
  [/(TaxExemptionReason|ExemptionReason|AllowanceChargeReason|Powod)$/, 'inbound_f_reason'],
  [/ZdarzeniePoczatkowe$/, 'description'],
  [/(^|\/)(Opis\w*|Description|DocumentDescription|AdditionalInformation|DocumentType)$/, 'description'],
  [/(^|\/)BaseQuantity$/, 'inbound_f_base_quantity'],
  [/(InvoicedQuantity|UnitQuantity|BasisQuantity|Ilosc|P_8BZ)$/, 'quantity'],
  [/PackageQuantity$/, 'inbound_f_packages'],
  [/(BaseUnitMeasure|Jednostka|JednostkaOpakowania|P_8AZ)$/, 'inbound_f_unit'],
  [/BasisPeriodMeasure$/, 'inbound_f_period'],
  [/(SourceCurrencyCode|TargetCurrencyCode)$/, 'currency'],
  [/P_6A$/, 'inbound_delivery_date'],
  [/(^|\/)Termin$/, 'due_date'],
  [/(IssueTime|ValidationTime|PaidTime)$/, 'inbound_f_time'],
  [/(DateTime|DateTimeString|Date|DataZamowienia|DataWystFaKorygowanej|DataOraConsegna)$/, 'inbound_f_date'],
  [/(CommodityCode|NatureCode|IndustryClassificationCode|ItemClassificationCode|\/CN)$/, 'inbound_bt_classification'],
  [/(AccountingCost|SpecifiedTradeAccountingAccount\/ID)$/, 'inbound_bt_accounting'],
  [/(WarunkiDostawy|DeliveryTerms\/ID)$/, 'inbound_f_terms', 'inbound_ctx_delivery'],
  [/(TypeCode|FormatoTrasmissione|FormaPlatnosci|RodzajTransportu|TipoDato)$/, 'inbound_f_type'],
  [/(ContentCode|ResponseCode|SubjectCode)$/, 'inbound_f_code'],
  [/Udzial$/, 'inbound_f_share'],
  [/Rola$/, 'inbound_f_role'],
  [/P_PMarzy\w*$/, 'inbound_f_value', 'inbound_ctx_margin'],
  [/NKom$/, 'inbound_f_column'],
  [/SKom$/, 'total'],
  [/(ZWartosc|TWartosc|WKom|Value|Indicator)$/, 'inbound_f_value'],
  [
    /(^|\/)(ID|UUID|IdCodice|IdDocumento|IssuerAssignedID|GlobalID|GLN|SellerAssignedID|LotNumberID|UU_IDZ?|InstructionID|ProfileExecutionID)$/,
    'inbound_identifier',
  ],
];

interface DetailTerm {
  /** Whose value it is (null: the label is the field alone). */
  owner: LabelKey | null;
  /** What it is, a catalog key or a name printed as it is. */
  word: LabelKey | { literal: string };
  /** False where no FIELDS entry knows the element: printed as "Other value" under its owner. */
  known: boolean;
}

/** The owner and the word of a value at `path` (its element path without indexes). */
export function detailTerm(path: string): DetailTerm {
  const names = path.split('/');
  const owners = names.slice(0, -1);
  const context = CONTEXTS.find(([pattern]) => owners.some((name) => pattern.test(name)))?.[1];
  // A reference document below a line is the line's invoiced object (BT-128), not an attachment.
  const owner =
    context === 'inbound_attachments' && /LineItem|InvoiceLine|CreditNoteLine/.test(path)
      ? 'inbound_bt_object'
      : (context ?? 'inbound_ctx_document');
  const literal = LITERALS.exec(path)?.[1];
  if (literal) return { owner, word: { literal }, known: true };
  const field = FIELDS.find(([pattern]) => pattern.test(path));
  if (!field) return { owner, word: 'inbound_f_other', known: false };
  const [, word, fixedOwner] = field;
  return { owner: fixedOwner === undefined ? owner : fixedOwner, word, known: true };
}
