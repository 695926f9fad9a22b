/**
 * The texts that describe FA(3) where the service lists its routes (OpenAPI, MCP tools, llms.txt);
 * the user page is docs/e-invoices-poland.md.
 */
export const KSEF_ROUTE_DESCRIPTION =
  'The invoice as a Polish KSeF e-invoice, FA(3) XML (namespace http://crd.gov.pl/wzor/2025/06/25/13775/, KodFormularza kodSystemowy "FA (3)" wersjaSchemy "1-0E"), the file the taxpayer uploads to KSeF with their own credentials (the service never talks to KSeF). The body is the invoice of /v1/invoice.pdf with the optional "ksef" object (kind VAT, KOR correction or ZAL advance; corrected_ksef_number; exchange_rate for a currency other than PLN with VAT lines, then the VAT also in PLN, P_14_xW; annotations: cash_accounting, self_billing, reverse_charge, split_payment, simplified_triangular, margin_scheme; exemption { basis, text } for E lines; payment_form; paid_on; rate_codes). The NIPs come from seller/buyer vat_id (PL + 10 digits, checksum verified); the rate codes (P_12) from the lines: S 23/22/8/7/5/4/3, Z 0 KR, K 0 WDT, G 0 EX, E zw, AE oo, O np I. P_13_x, P_14_x and P_15 equal POST /v1/e-invoice/validate\'s totals with "profile": "ksef". Every problem is a 400 einvoice_rules_failed (or validation_failed) naming each field, never charged. docs/e-invoices-poland.md.';

/** The llms.txt line on reading FA(3) and its verification QR code. */
export const KSEF_READING_NOTE =
  'POST /v1/e-invoice/inspect and /v1/e-invoice/render.pdf also read a KSeF FA(3) XML; render.pdf prints the KSeF verification QR code (KOD I: https://qr.ksef.mf.gov.pl/invoice/{seller NIP}/{P_1 DD-MM-YYYY}/{Base64URL SHA-256 of the XML bytes as sent}) captioned with the ksef_number query parameter (checked: format, CRC-8, seller NIP) or OFFLINE; the test or demo host by the server setting KSEF_QR_ENVIRONMENT or the request parameter ksef_environment. KOD II (offline certificate) is not produced.';
