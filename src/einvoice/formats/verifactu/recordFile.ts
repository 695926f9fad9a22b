import { InputRejected } from '../../../errors.js';
import { SPECIMEN_NOTE, SPECIMEN_TEXT } from '../../../invoice/specimen.js';
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
 * A record paid with test money, marked so that it says what it is wherever it goes (AEAT's message
 * has no test flag, and neither field below is covered by the huella): a RegistroAlta's
 * DescripcionOperacion is the specimen note; a RegistroAnulacion, which has no description, carries
 * the short specimen text as its RefExterna (at most 60 characters), replacing the request's
 * external_reference. A message left unmarked would be a bug handing out an unmarked specimen: it throws.
 */
export function specimenRecordFile(written: Uint8Array): Uint8Array {
  const xml = Buffer.from(written).toString('utf8');
  const marked = xml
    .replace(
      /<sum1:DescripcionOperacion>[^<]*<\/sum1:DescripcionOperacion>/g,
      `<sum1:DescripcionOperacion>${SPECIMEN_NOTE}</sum1:DescripcionOperacion>`,
    )
    .replace(/(<sum1:RegistroAnulacion>[\s\S]*?<\/sum1:RegistroAnulacion>)/g, (record) =>
      record.includes('<sum1:RefExterna>')
        ? record.replace(/<sum1:RefExterna>[^<]*</, `<sum1:RefExterna>${SPECIMEN_TEXT}<`)
        : record.replace(
            /(\n?)([ \t]*)(<\/sum1:IDFactura>)/,
            (_, newline: string, indent: string, end: string) =>
              `${newline}${indent}${end}${newline}${indent}<sum1:RefExterna>${SPECIMEN_TEXT}</sum1:RefExterna>`,
          ),
    );
  const records = (xml.match(/<sum1:Registro(Alta|Anulacion)>/g) ?? []).length;
  const marks = marked.split(SPECIMEN_NOTE).length - 1 + marked.split(`<sum1:RefExterna>${SPECIMEN_TEXT}<`).length - 1;
  if (records === 0 || marks !== records) throw new Error('the VERI*FACTU specimen left a record unmarked');
  return Buffer.from(marked);
}
