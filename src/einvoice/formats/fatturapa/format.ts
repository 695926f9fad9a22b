import * as v from 'valibot';
import { defineFormat } from '../format.js';
import { FatturaPAFieldsSchema } from './fields.js';
import { EXAMPLE_FATTURAPA_REQUEST } from './example.js';
import { checkFatturaPARequest, FATTURAPA_TITLE, writeFatturaPAItem } from './request.js';
import { isFatturaPARoot, readFatturaPA } from './reader.js';
import { FATTURAPA_NAMESPACE } from './writer.js';
import { unknownRoot } from '../../inbound/refusals.js';

/**
 * Italy's FatturaPA 1.2.3: a syntax of its own (format fatturapa, one route POST
 * /v1/e-invoice/fatturapa.xml in src/operations/eInvoiceOperations.ts), not EN 16931. Its SDI
 * controls need the request's `fatturapa` object, so they run as the module's own request check
 * (request.ts), whose parsed fields travel on as the checked request's `own`. A received file's several bodies are several documents: the
 * first is read, the count reported (inbound/readInbound.ts).
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
  requestField: v.optional(
    v.pipe(
      FatturaPAFieldsSchema,
      v.description(
        'Italy (profile fatturapa only): the FatturaPA fields the invoice JSON lacks; docs/e-invoices-italy.md.',
      ),
    ),
  ),
  // FatturaPA is not EN 16931: its SDI controls are sdiChecks.ts, run by request.ts's checkFatturaPA.
  rules: [],
  checkRequest: checkFatturaPARequest,
  reader: {
    describe: 'an Italian FatturaElettronica (also signed, .p7m)',
    marker: FATTURAPA_NAMESPACE,
    customizations: [[/^FatturaPA 1\.2 FP[AR]12$/, 'FatturaPA (Italy)']],
    matches: isFatturaPARoot,
    read: (root) => {
      const [first] = readFatturaPA(root);
      if (!first) throw unknownRoot('FatturaElettronica without FatturaElettronicaBody', []);
      return first;
    },
    readAll: readFatturaPA,
  },
  writer: {
    mediaType: 'application/xml',
    route: '/v1/e-invoice/fatturapa.xml',
    fileSuffix: '-fatturapa.xml',
    write: writeFatturaPAItem,
  },
  docs: {
    whatYouGet: "Italy's FatturaPA 1.2.3 (FPR12; FPA12 on request), checked as the SDI would; docs/e-invoices-italy.md",
    formats: 'FatturaPA XML at `/v1/e-invoice/fatturapa.xml`',
    businessProcess: 'none (FatturaPA has no BT-23); the `fatturapa` object carries TipoDocumento, regime, Natura, …',
  },
  example: EXAMPLE_FATTURAPA_REQUEST,
});
