import { kid, type XNode } from '../../../xml/xmlTree.js';
import type { RecordFileReader } from '../format.js';
import { isRecordFile, readRecordTree, type RecordsReport } from './reader.js';
import { SOAP_ENVELOPE, SUMINISTRO_INFORMACION } from './writer.js';

/**
 * POST /v1/e-invoice/inspect of VERI*FACTU records (the module's `records` hook, format.ts): a
 * message is no invoice, so inspect answers this report instead of an invoice's, and render.pdf
 * refuses it. docs/e-invoices-spain.md ("Reading records back") documents every field.
 */
interface RecordsInspectAnswer extends RecordsReport {
  syntax: 'verifactu';
  document: 'billing_records';
  /** soap: the message was inside AEAT's SOAP envelope; null: bare (a message, or one record alone). */
  envelope: 'soap' | null;
  /** The message's Cabecera/ObligadoEmision; null for a record sent alone. */
  obligado_emision: { name: string; nif: string } | null;
  notes: string[];
}

const NOTES = [
  "Each huella is recomputed from the record's own fields as written (AEAT's huella specification 0.1.2); each record's previous record is looked for among the records of the same issuer before it in this message.",
  'The QR URLs are those of the production host (www2.agenciatributaria.gob.es); a record does not say which host its PDF used, nor its mode: ValidarQRNoVerifactu is read for a signed record or a message sent on requirement (RemisionRequerimiento).',
  "Not checked here: AEAT's XSD and business rules (POST /v1/e-invoice/validate checks the invoice a record is made from), and no signature is verified.",
];

function inspectRecords(root: XNode): RecordsInspectAnswer {
  const soap = root.ns === SOAP_ENVELOPE;
  const message = soap ? kid(kid(root, 'Body'), 'RegFactuSistemaFacturacion') : root;
  const obligado = kid(kid(message, 'Cabecera'), 'ObligadoEmision');
  return {
    syntax: 'verifactu',
    document: 'billing_records',
    envelope: soap ? 'soap' : null,
    obligado_emision: obligado
      ? { name: kid(obligado, 'NombreRazon')?.text ?? '', nif: kid(obligado, 'NIF')?.text ?? '' }
      : null,
    ...readRecordTree(root),
    notes: NOTES,
  };
}

export const VERIFACTU_RECORD_FILES: RecordFileReader = {
  describe:
    "a VERI*FACTU billing record message (AEAT's RegFactuSistemaFacturacion, or a RegistroAlta or RegistroAnulacion alone)",
  // Every record is in this namespace, whether in a message, its SOAP envelope or alone.
  marker: SUMINISTRO_INFORMACION,
  recognises: isRecordFile,
  inspect: inspectRecords,
};
