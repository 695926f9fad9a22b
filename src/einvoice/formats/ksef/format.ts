import { defineFormat } from '../format.js';
import * as v from 'valibot';
import { fa3AmountFields } from './fa3Amounts.js';
import { specimenFa3 } from './fa3Specimen.js';
import { kodIHook } from './kodI.js';
import { KSEF_EXAMPLE } from './ksefExample.js';
import { KSEF_READING_NOTE, KSEF_ROUTE_DESCRIPTION } from './ksefDocs.js';
import { KsefField } from './ksefFields.js';
import { checkKsefObject, type KsefChecked } from './ksefRequest.js';
import { isFa3Root, readFa3 } from './readFa3.js';
import { FA3_NAMESPACE, writeFa3 } from './writeFa3.js';

/** FA(3) has no EN 16931 specification identifier: its schema's form code and version stand in. */
const FA3_SCHEMA = 'FA (3) 1-0E';

/**
 * Poland's KSeF FA(3): a syntax of its own (format fa3, its route POST /v1/e-invoice/ksef.xml), no
 * hybrid PDF, not EN 16931: its checks are those of its `ksef` object with the invoice (ksefChecks.ts).
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
  checks: {
    base: 'none',
    own: {
      field: KsefField,
      check: checkKsefObject,
      report: {
        key: 'format_amounts',
        schema: v.optional(
          v.pipe(
            v.record(v.string(), v.string()),
            v.description(
              'Profile ksef: the FA(3) amounts as the XML writes them, by element (P_13_1, P_14_1, P_14_1W, …, P_15); for a ZAL the advance received, shared among the rates.',
            ),
          ),
        ),
        build: (_prepared, own: KsefChecked) => fa3AmountFields(own.amounts),
      },
    },
  },
  writer: {
    route: '/v1/e-invoice/ksef.xml',
    summary: 'Poland KSeF e-invoice as FA(3) XML, to upload to KSeF (paid, x402)',
    description: KSEF_ROUTE_DESCRIPTION,
    answer: 'The FA(3) XML, UTF-8.',
    refusalName: 'KSeF FA(3)',
    mediaType: 'application/xml',
    fileSuffix: '-ksef-fa3.xml',
    write: ({ prepared, own }, at) => ({ file: writeFa3({ prepared, ...(own as KsefChecked) }, at) }),
    // FA(3) has no test flag: the specimen note leads the footer of the file written (fa3Specimen.ts).
    specimen: (_checked, written) => specimenFa3(written),
  },
  reading: { recognises: (document) => document.syntax === 'fa3', totals: (document) => document.ownTotals! },
  reader: {
    describe: 'a KSeF FA(3) Faktura',
    marker: FA3_NAMESPACE,
    customizations: [[/^FA \(3\) 1-0E$/, 'Poland KSeF FA(3)']],
    recognises: isFa3Root,
    read: readFa3,
  },
  verificationCode: kodIHook,
  docs: {
    whatYouGet: "Poland's KSeF e-Faktura FA(3), the file the taxpayer uploads to KSeF",
    formats: 'FA(3) XML at `/v1/e-invoice/ksef.xml`',
    businessProcess: 'none (FA(3) has no BT-23); the `ksef` object carries kind VAT/KOR/ZAL, annotations, exemption',
    reading: KSEF_READING_NOTE,
  },
  example: KSEF_EXAMPLE,
});
