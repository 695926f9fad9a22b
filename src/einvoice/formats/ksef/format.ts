import { defineFormat } from '../format.js';
import { fa3AmountFields } from './fa3Amounts.js';
import { specimenFa3 } from './fa3Specimen.js';
import { kodIHook } from './kodI.js';
import { KSEF_EXAMPLE } from './ksefExample.js';
import { KsefField } from './ksefFields.js';
import { checkKsefRequest } from './ksefRequest.js';
import { prepareKsefItem } from './ksefRoute.js';
import { isFa3Root, readFa3 } from './readFa3.js';
import { FA3_NAMESPACE } from './writeFa3.js';

/** FA(3) has no EN 16931 specification identifier: its schema's form code and version stand in. */
const FA3_SCHEMA = 'FA (3) 1-0E';

/**
 * Poland's KSeF FA(3): a syntax of its own (format fa3, one route POST /v1/e-invoice/ksef.xml in
 * src/operations/eInvoiceOperations.ts), no hybrid PDF. Its checks need the request's `ksef`
 * object, so they run as the module's own request check (ksefRequest.ts), not as `rules`.
 */
export const ksef = defineFormat({
  id: 'ksef',
  title: 'Poland KSeF FA(3)',
  blurb: 'Poland KSeF FA(3), its own XML at /v1/e-invoice/ksef.xml, with the optional ksef object',
  writes: ['fa3'],
  specification: `${FA3_SCHEMA} (${FA3_NAMESPACE})`,
  ruleSets: [
    'KSeF e-Faktura FA(3) schema 1-0E (Ministerstwo Finansów; its constraints that a request can break) and the rules of its documentation and the VAT act the service checks (NIP checksum, rate codes, exemption basis, correction reference, exchange rate, advance)',
  ],
  requiredFields: [
    'seller.vat_id: PL and the 10-digit NIP (checksum verified); buyer.vat_id PL + NIP, another EU VAT id, any other tax id, or none',
    'seller.street (or address), postal_code, city',
    'line VAT: S at 23, 22, 8, 7, 5, 4 or 3 %; Z (0 KR), K (0 WDT), G (0 EX), E (zw), AE (oo), O (np I); ksef.rate_codes for np II',
    'ksef.exemption { basis, text } with an E line; ksef.exchange_rate for a currency other than PLN with VAT lines',
    'ksef.kind KOR: preceding_invoice { number, issue_date } (ksef.corrected_ksef_number when it has one); ZAL: ksef.advance { amount, received_on }',
    'no invoice-level discount; amount_paid with ksef.paid_on',
  ],
  rules: [],
  requestField: KsefField,
  checkRequest: (invoiceBody) => {
    const { prepared, issues, amounts } = checkKsefRequest(invoiceBody);
    return { prepared, issues, formatAmounts: fa3AmountFields(amounts) };
  },
  recognise: (document) => document.syntax === 'fa3',
  reader: {
    describe: 'a KSeF FA(3) Faktura',
    marker: FA3_NAMESPACE,
    customizations: [[/^FA \(3\) 1-0E$/, 'Poland KSeF FA(3)']],
    matches: isFa3Root,
    read: readFa3,
    verificationCode: kodIHook,
  },
  writer: {
    mediaType: 'application/xml',
    route: '/v1/e-invoice/ksef.xml',
    fileSuffix: '-ksef-fa3.xml',
    // Paid with test money: the specimen note leads the footer (FA(3) has no test flag, fa3Specimen.ts).
    write: (body: unknown, options?: { specimen?: boolean }) => {
      const { prepared, xml } = prepareKsefItem(body);
      return { prepared, file: options?.specimen ? specimenFa3(xml) : xml };
    },
  },
  docs: {
    whatYouGet: "Poland's KSeF e-Faktura FA(3), the file the taxpayer uploads to KSeF",
    formats: 'FA(3) XML at `/v1/e-invoice/ksef.xml`',
    businessProcess: 'none (FA(3) has no BT-23); the `ksef` object carries kind VAT/KOR/ZAL, annotations, exemption',
  },
  example: KSEF_EXAMPLE,
});
