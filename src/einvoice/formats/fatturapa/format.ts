import * as v from 'valibot';
import { defineFormat } from '../format.js';
import { FatturaPAFieldsSchema } from './fields.js';
import { EXAMPLE_FATTURAPA_REQUEST } from './example.js';
import { asSpecimen } from '../../../invoice/specimen.js';
import {
  checkFatturaPAObject,
  FATTURAPA_ROUTE_DESCRIPTION,
  FATTURAPA_TITLE,
  fatturaPAReport,
  FatturaPAReportSchema,
  produceFatturaPA,
  writeFatturaPAFile,
} from './request.js';
import type { FatturaPAFields } from './fields.js';
import { isFatturaPARoot, readFatturaPA } from './reader.js';
import { FATTURAPA_NAMESPACE } from './writer.js';
import { unknownRoot } from '../../inbound/refusals.js';

/**
 * Italy's FatturaPA 1.2.3: a syntax of its own (format fatturapa, its route POST
 * /v1/e-invoice/fatturapa.xml), not EN 16931: its checks are the SDI controls of the invoice with its
 * `fatturapa` object (request.ts, sdiChecks.ts), whose parsed fields travel on as the checked
 * request's `own` to the writer and validate's report. A received file's several bodies are several
 * documents: the first is read, the count reported (inbound/readInbound.ts).
 */
export const fatturapa = defineFormat({
  id: 'fatturapa',
  title: FATTURAPA_TITLE,
  blurb: 'Italy, FatturaPA 1.2.3 at /v1/e-invoice/fatturapa.xml, with the optional fatturapa object',
  writes: ['fatturapa'],
  specification: 'FatturaPA 1.2.3 (FPR12)',
  ruleSets: [
    'FatturaPA 1.2.3 schema (Schema_VFPA12_V1.2.3.xsd) and the SDI controls a request can break (specifiche tecniche, allegato A: 00200, 00300-00306, 00311, 00400, 00401, 00411-00427, 00445)',
  ],
  requiredFields: [
    'seller.vat_id (IdFiscaleIVA; IT + 11 digits with its check digit), seller and buyer name, street, city, country (postal_code of 5 digits in Italy)',
    'buyer.vat_id or fatturapa.buyer_codice_fiscale for an Italian buyer (00417)',
    'fatturapa.natura or fatturapa.line_natura for every 0 % line (00400; K, G, E lines default to N3.2, N3.1, N4)',
    'invoice_number of at most 20 ASCII characters with a digit (00425)',
    'fatturapa.recipient_code of 6 characters with transmission_format FPA12 (00427)',
  ],
  checks: {
    base: 'none',
    own: {
      field: v.optional(
        v.pipe(
          FatturaPAFieldsSchema,
          v.description(
            'Italy (profile fatturapa only): the FatturaPA fields the invoice JSON lacks; docs/e-invoices-italy.md.',
          ),
        ),
      ),
      check: checkFatturaPAObject,
      // Structured (per rate and Natura, the SDI file name): more than a flat element-to-amount record carries.
      report: {
        key: 'fatturapa',
        schema: v.optional(
          v.pipe(
            FatturaPAReportSchema,
            v.description(
              'Profile fatturapa: the SDI file name and the amounts of the FatturaPA (DatiRiepilogo per rate and Natura, pension fund, withholding, stamp duty, ImportoTotaleDocumento, ImportoPagamento), exactly as the XML carries them.',
            ),
          ),
        ),
        build: (prepared, own: FatturaPAFields) => fatturaPAReport(prepared, own),
      },
    },
  },
  writer: {
    route: '/v1/e-invoice/fatturapa.xml',
    summary: "Italy's FatturaPA 1.2.3 e-invoice (FPR12; FPA12 on request) checked as the SDI would (paid, x402)",
    description: FATTURAPA_ROUTE_DESCRIPTION,
    answer: 'The FatturaPA XML, UTF-8, named in Content-Disposition as the SDI expects (IT<id>_<progressive>.xml).',
    mediaType: 'application/xml',
    fileSuffix: '-fatturapa.xml',
    write: ({ prepared, own }) => writeFatturaPAFile(prepared, own as FatturaPAFields),
    // FatturaPA has no test flag: the specimen note leads the Causale, so the file is written again.
    specimen: ({ prepared, own }) => produceFatturaPA(asSpecimen(prepared), own as FatturaPAFields).xml,
  },
  reader: {
    describe: 'an Italian FatturaElettronica (also signed, .p7m)',
    marker: FATTURAPA_NAMESPACE,
    customizations: [[/^FatturaPA 1\.2 FP[AR]12$/, 'FatturaPA (Italy)']],
    recognises: isFatturaPARoot,
    read: (root) => {
      const [first] = readFatturaPA(root);
      if (!first) throw unknownRoot('FatturaElettronica without FatturaElettronicaBody', []);
      return first;
    },
    readAll: readFatturaPA,
  },
  docs: {
    whatYouGet: "Italy's FatturaPA 1.2.3 (FPR12; FPA12 on request), checked as the SDI would; docs/e-invoices-italy.md",
    formats: 'FatturaPA XML at `/v1/e-invoice/fatturapa.xml`',
    businessProcess: 'none (FatturaPA has no BT-23); the `fatturapa` object carries TipoDocumento, regime, Natura, …',
  },
  example: EXAMPLE_FATTURAPA_REQUEST,
});
