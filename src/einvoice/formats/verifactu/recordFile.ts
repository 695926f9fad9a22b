import { InputRejected } from '../../../errors.js';
import { SPECIMEN_NOTE } from '../../../invoice/specimen.js';
import type { CheckedRequest, ServerSettings, WrittenFile } from '../format.js';
import { buildRecord, previousOf, type BillingRecord } from './model.js';
import type { CheckedVerifactu } from './request.js';
import { systemOf } from './system.js';
import { writeMessage } from './writer.js';

/**
 * The module writer's hooks (format.ts): the record generated at `at` (its FechaHoraHusoGenRegistro,
 * so its huella) with SistemaInformatico from the server's settings, a batch's records chained in
 * order, and a specimen's mark. The checked request's `own` is request.ts CheckedVerifactu.
 */
const HUELLA_HEADER = 'X-Verifactu-Huella';

/** The record of a checked request, as its file states it. */
function recordAt(checked: CheckedRequest, at: Date, settings: ServerSettings): BillingRecord {
  const { fields } = checked.own as CheckedVerifactu;
  return buildRecord(checked.prepared, fields, {
    system: systemOf(settings),
    environment: fields.environment ?? 'production',
    now: at,
  });
}

/** The RegFactuSistemaFacturacion message (in the SOAP envelope when asked); its huella also as a header. */
export function writeRecordFile(checked: CheckedRequest, at: Date, settings: ServerSettings): WrittenFile {
  const { fields } = checked.own as CheckedVerifactu;
  const record = recordAt(checked, at, settings);
  return {
    file: Buffer.from(writeMessage([record], { soap: fields.soap ?? false })),
    headers: { [HUELLA_HEADER]: record.huella },
  };
}

/**
 * A batch item's record made to follow the last record of the same issuer written before it (the
 * chain is the issuer's billing system's): its `previous` is that record, whose huella its file's
 * header states. An item that names another predecessor is refused (a 400 naming the field); the
 * first record of an issuer keeps its own `previous` (or none: PrimerRegistro).
 */
export function chainRecord(
  checked: CheckedRequest,
  earlier: readonly { checked: CheckedRequest; written: WrittenFile }[],
): CheckedRequest {
  const own = checked.own as CheckedVerifactu;
  const before = earlier.findLast(
    (file) => (file.checked.own as CheckedVerifactu).record.issuerNif === own.record.issuerNif,
  );
  if (!before) return checked;
  const link = previousOf({
    ...(before.checked.own as CheckedVerifactu).record,
    huella: before.written.headers?.[HUELLA_HEADER] ?? '',
  });
  const stated = own.fields.previous;
  const same =
    stated?.issuer_nif === link.issuer_nif &&
    stated.invoice_number === link.invoice_number &&
    stated.issue_date === link.issue_date &&
    stated.huella === link.huella;
  if (stated && !same)
    throw new InputRejected('validation_failed', 'A record of this batch names another previous record.', [
      {
        path: 'verifactu.previous',
        code: 'verifactu_batch_chain',
        message: `must be absent: in a batch each record follows the one before it of the same issuer (${link.invoice_number} of ${link.issue_date})`,
      },
    ]);
  return { ...checked, own: { ...own, fields: { ...own.fields, previous: link } } };
}

/**
 * A record paid with test money: DescripcionOperacion is the specimen note, so the record says what
 * it is wherever it goes (AEAT's message has no test flag; the huella does not cover the description).
 */
export function specimenRecordFile(written: Uint8Array): Uint8Array {
  const xml = Buffer.from(written).toString('utf8');
  return Buffer.from(
    xml.replace(
      /<sum1:DescripcionOperacion>[^<]*<\/sum1:DescripcionOperacion>/,
      `<sum1:DescripcionOperacion>${SPECIMEN_NOTE}</sum1:DescripcionOperacion>`,
    ),
  );
}
