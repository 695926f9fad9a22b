import type { ProfileDefinition } from '../../profiles.js';

/**
 * Poland's KSeF FA(3) as an e-invoice profile: its own syntax (format fa3, one route
 * POST /v1/e-invoice/ksef.xml), no EN 16931 specification identifier (FA(3) has none: its schema's
 * form code and version stand in), no hybrid PDF.
 */
export const FA3_SCHEMA = 'FA (3) 1-0E';

export const KSEF_PROFILE: ProfileDefinition = {
  title: 'Poland KSeF FA(3)',
  specification: `${FA3_SCHEMA} (http://crd.gov.pl/wzor/2025/06/25/13775/)`,
  defaultBusinessProcess: undefined,
  formats: ['fa3'],
  ruleSets: [
    'KSeF e-Faktura FA(3) schema 1-0E (Ministerstwo Finansów; its constraints that a request can break) and the rules of its documentation and the VAT act the service checks (NIP checksum, rate codes, exemption basis, correction reference, exchange rate, advance)',
  ],
  hybrid: undefined,
  requiredFields: [
    'seller.vat_id: PL and the 10-digit NIP (checksum verified); buyer.vat_id PL + NIP, another EU VAT id, any other tax id, or none',
    'seller.street (or address), postal_code, city',
    'line VAT: S at 23, 22, 8, 7, 5, 4 or 3 %; Z (0 KR), K (0 WDT), G (0 EX), E (zw), AE (oo), O (np I); ksef.rate_codes for np II',
    'ksef.exemption { basis, text } with an E line; ksef.exchange_rate for a currency other than PLN',
    'ksef.kind KOR: preceding_invoice { number, issue_date } (ksef.corrected_ksef_number when it has one); ZAL: ksef.advance { amount, received_on }',
    'no invoice-level discount; amount_paid with ksef.paid_on',
  ],
};
