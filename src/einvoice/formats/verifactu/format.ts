import * as v from 'valibot';
import { defineFormat } from '../format.js';
import { EXAMPLE_VERIFACTU_REQUEST } from './example.js';
import { VerifactuRequestField } from './fields.js';
import { VERIFACTU_RECORD_FILES } from './readBack.js';
import { chainRecord, specimenRecordFile, writeRecordFile } from './recordFile.js';
import {
  checkVerifactuObject,
  VERIFACTU_TITLE,
  verifactuReport,
  VerifactuReportSchema,
  type CheckedVerifactu,
} from './request.js';
import { printVerifactu } from './printing.js';
import { SYSTEM_SETTINGS } from './system.js';
import { SUMINISTRO_INFORMACION } from './writer.js';

/**
 * Spain's VERI*FACTU billing record (RD 1007/2023, Orden HAC/1177/2024): a syntax of its own (AEAT's
 * RegFactuSistemaFacturacion message, its route POST /v1/e-invoice/verifactu.xml), not EN 16931: its
 * checks are AEAT's rules on the invoice with its `verifactu` object (checks.ts, detailChecks.ts, each
 * issue with AEAT's error code). The record is generated when written (FechaHoraHusoGenRegistro, so
 * its huella, is that moment), names this service as SistemaInformatico from the server's settings,
 * and a batch's records chain in order (recordFile.ts). docs/e-invoices-spain.md.
 */
export const verifactu = defineFormat({
  id: 'verifactu',
  title: VERIFACTU_TITLE,
  blurb: 'Spain VERI*FACTU record, its own XML',
  writes: ['verifactu'],
  specification: `VERI*FACTU RegistroAlta 1.0 (${SUMINISTRO_INFORMACION})`,
  ruleSets: [
    "AEAT VERI*FACTU: SuministroLR.xsd (2026-08 download), Validaciones y errores 1.2.2 (08/04/2026) with AEAT's error codes (errores.properties), huella specification 0.1.2, QR specification 0.5.0",
  ],
  requiredFields: [
    'seller.vat_id: ES + NIF (check character verified), or seller.tax_id of 9 characters',
    'currency EUR; invoice_number of at most 60 printable ASCII characters without " \' < > =',
    'buyer.vat_id (ES + NIF or an EU VAT number) or buyer.tax_id with verifactu.buyer_id_type, except for F2 and R5',
    'verifactu.vat_groups[].qualification for E and O lines (E1-E8 with the exemption cause, N1, N2)',
    'verifactu.corrected_invoices (or preceding_invoice with its issue_date) for R1-R5; corrected_amounts with correction substitution',
    'verifactu.previous { issuer_nif, invoice_number, issue_date, huella } unless this is the system’s first record',
  ],
  checks: {
    base: 'none',
    own: {
      field: VerifactuRequestField,
      check: checkVerifactuObject,
      report: {
        key: 'verifactu',
        schema: v.optional(
          v.pipe(
            VerifactuReportSchema,
            v.description(
              "Profile verifactu: the record as of the request: its kind, TipoFactura, CuotaTotal and ImporteTotal as written, FechaHoraHusoGenRegistro, the huella it would carry then (and the previous record's), and the QR tributario's URL.",
            ),
          ),
        ),
        build: (_prepared, own: CheckedVerifactu) => verifactuReport(own),
      },
    },
  },
  writer: {
    route: '/v1/e-invoice/verifactu.xml',
    summary: "Spain's VERI*FACTU billing record (RegistroAlta, chained by its huella) for AEAT (paid, x402)",
    description:
      "The invoice's billing record as AEAT's RegFactuSistemaFacturacion message (SuministroLR.xsd): a RegistroAlta (verifactu.record cancellation: a RegistroAnulacion) with FechaHoraHusoGenRegistro the moment it is generated (Spanish time) and its SHA-256 huella chained to verifactu.previous (answered again in X-Verifactu-Huella); verifactu.soap wraps it in AEAT's SOAP envelope. The invoice JSON of /v1/invoice.pdf in EUR, seller.vat_id ES + NIF, profile verifactu implied, and the optional `verifactu` object: invoice_type F1-F3/R1-R5, correction, corrected_invoices, regime, vat_groups (S1, S2, N1, N2, E1-E8, surcharge_rate), tax IVA/IGIC/IPSI, previous {issuer_nif, invoice_number, issue_date, huella}. Before any payment the request is checked as AEAT would check the record (NIF check characters, the invoice type's conditions, qualifications and exemptions, rates, totals, the chain): a 400 einvoice_rules_failed lists every issue with its field and AEAT's error code, never charged. The service does not send the record to AEAT: the issuer sends it with its certificate (docs/e-invoices-spain.md). /v1/invoice.pdf with the same verifactu object prints the matching QR tributario; a batch (/v1/invoices.zip, format verifactu) chains its records in order.",
    answer: 'The RegFactuSistemaFacturacion message, UTF-8.',
    mediaType: 'application/xml',
    fileSuffix: '-verifactu.xml',
    settings: SYSTEM_SETTINGS,
    write: writeRecordFile,
    chain: chainRecord,
    // AEAT's message has no test flag: the specimen note is the DescripcionOperacion (outside the huella).
    specimen: (_checked, written) => specimenRecordFile(written),
  },
  // A record message is no invoice: inspect reports its records (huellas, chain, QR URLs); render.pdf refuses it.
  records: VERIFACTU_RECORD_FILES,
  // POST /v1/invoice.pdf (and factur-x.pdf) with a `verifactu` object: the QR tributario and the equivalence surcharge.
  printing: {
    summary:
      "AEAT's QR tributario of the invoice's record at the top of page 1 (VERI*FACTU below it), each equivalence surcharge as a row of its own, counted in the total",
    print: printVerifactu,
  },
  docs: {
    whatYouGet:
      "Spain's VERI*FACTU billing record (RegistroAlta or RegistroAnulacion) with its huella, checked with AEAT's error codes; docs/e-invoices-spain.md",
    formats: 'RegFactuSistemaFacturacion XML at `/v1/e-invoice/verifactu.xml` (optionally in its SOAP envelope)',
    businessProcess:
      'none (VERI*FACTU has no BT-23); the `verifactu` object carries TipoFactura, ClaveRegimen, qualifications, previous',
  },
  example: { ...EXAMPLE_VERIFACTU_REQUEST, profile: 'verifactu' },
});
