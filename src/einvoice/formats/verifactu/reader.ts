import { kid, kids, parseXmlTree, type XNode } from '../../../xml/xmlTree.js';
import { INBOUND_XML_BOUNDS } from '../../inbound/limits.js';
import { altaHuella, anulacionHuella } from './huella.js';
import { qrUrl, type AeatEnvironment, type VerifactuMode } from './qr.js';
import { linkChain, type RecordChain } from './recordChain.js';
import { SOAP_ENVELOPE, SUMINISTRO_INFORMACION, SUMINISTRO_LR } from './writer.js';

/**
 * A VERI*FACTU record, or a message (RegFactuSistemaFacturacion, bare or in its SOAP envelope)
 * holding several, read back: each record's huella recomputed from its own fields as written,
 * each link of the chain inside the message checked (recordChain.ts), and the QR URL of each
 * invoice, built by the code that builds the PDF's QR (qr.ts). A tampered amount makes that
 * record's huella not match and nothing else is lost: every other record is still reported.
 */
interface RecordFinding {
  /** Its position in the message, from 0. */
  index: number;
  kind: 'alta' | 'anulacion';
  issuer_nif: string;
  invoice_number: string;
  /** FechaExpedicionFactura as written, DD-MM-AAAA. */
  issue_date: string;
  invoice_type: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  generated_at: string;
  huella: { stated: string; computed: string; matches: boolean };
  chain: RecordChain;
  /** Which QR the invoice carries: no_verifactu when the record is signed or the message answers a requirement. */
  mode: VerifactuMode;
  /** The invoice's QR tributario URL (production host); null for a cancellation, which states no amount. */
  qr_url: string | null;
}

export interface RecordsReport {
  records: RecordFinding[];
  huellas_match: boolean;
  chain_intact: boolean;
}

const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const isRecord = (node: XNode) =>
  node.ns === SUMINISTRO_INFORMACION && (node.name === 'RegistroAlta' || node.name === 'RegistroAnulacion');

/** The message element: the root, or the SOAP envelope's body's one child. */
function messageOf(root: XNode): XNode | undefined {
  const message =
    root.ns === SOAP_ENVELOPE && root.name === 'Envelope' ? kid(kid(root, 'Body'), 'RegFactuSistemaFacturacion') : root;
  return message?.ns === SUMINISTRO_LR && message.name === 'RegFactuSistemaFacturacion' ? message : undefined;
}

/** A message of records (bare or in its SOAP envelope), or one record alone. */
export const isRecordFile = (root: XNode): boolean => isRecord(root) || messageOf(root) !== undefined;

/** The records of a file isRecordFile accepts, in document order. */
function recordsOf(root: XNode): XNode[] {
  if (isRecord(root)) return [root];
  return kids(messageOf(root), 'RegistroFactura').flatMap((holder) => holder.children.filter(isRecord));
}

/** The records of a parsed file, read back. */
export function readRecordTree(root: XNode, environment: AeatEnvironment = 'production'): RecordsReport {
  // A message sent on AEAT's requirement comes from a system that is not VERI*FACTU.
  const onRequirement = kids(kid(messageOf(root), 'Cabecera'), 'RemisionRequerimiento').length > 0;
  const records = recordsOf(root).map((node, index) => readOne(node, index, onRequirement, environment));
  linkChain(records);
  return {
    records,
    huellas_match: records.every((record) => record.huella.matches),
    chain_intact: records.every((record) => record.chain.link !== 'broken'),
  };
}

/** The records of an XML text, read within the bounds of every inbound XML. */
export function readRecords(xml: string, options: { environment?: AeatEnvironment } = {}): RecordsReport {
  return readRecordTree(parseXmlTree(xml, INBOUND_XML_BOUNDS), options.environment);
}

const textOf = (node: XNode | undefined, ...path: string[]): string => {
  let at = node;
  for (const name of path) at = kid(at, name);
  return at?.text ?? '';
};

function previousOf(chaining: XNode | undefined): RecordChain['previous'] {
  const previous = kid(chaining, 'RegistroAnterior');
  if (!previous) return null;
  return {
    issuer_nif: textOf(previous, 'IDEmisorFactura'),
    invoice_number: textOf(previous, 'NumSerieFactura'),
    issue_date: textOf(previous, 'FechaExpedicionFactura'),
    huella: textOf(previous, 'Huella'),
  };
}

function readOne(node: XNode, index: number, onRequirement: boolean, environment: AeatEnvironment): RecordFinding {
  const alta = node.name === 'RegistroAlta';
  const suffix = alta ? '' : 'Anulada';
  const id = kid(node, 'IDFactura');
  const issuer = textOf(id, `IDEmisorFactura${suffix}`);
  const number = textOf(id, `NumSerieFactura${suffix}`);
  const date = textOf(id, `FechaExpedicionFactura${suffix}`);
  const chaining = kid(node, 'Encadenamiento');
  const previous = previousOf(chaining);
  const generatedAt = textOf(node, 'FechaHoraHusoGenRegistro');
  const type = textOf(node, 'TipoFactura');
  const cuota = textOf(node, 'CuotaTotal');
  const importe = textOf(node, 'ImporteTotal');
  const computed = alta
    ? altaHuella({
        IDEmisorFactura: issuer,
        NumSerieFactura: number,
        FechaExpedicionFactura: date,
        TipoFactura: type,
        CuotaTotal: cuota,
        ImporteTotal: importe,
        Huella: previous?.huella ?? '',
        FechaHoraHusoGenRegistro: generatedAt,
      })
    : anulacionHuella({
        IDEmisorFacturaAnulada: issuer,
        NumSerieFacturaAnulada: number,
        FechaExpedicionFacturaAnulada: date,
        Huella: previous?.huella ?? '',
        FechaHoraHusoGenRegistro: generatedAt,
      });
  const stated = textOf(node, 'Huella');
  // A record of a system that is not VERI*FACTU is signed (XAdES enveloped in the record).
  const signed = node.children.some((child) => child.ns === XMLDSIG && child.name === 'Signature');
  const mode: VerifactuMode = onRequirement || signed ? 'no_verifactu' : 'verifactu';
  const first = textOf(chaining, 'PrimerRegistro') === 'S';
  return {
    index,
    kind: alta ? 'alta' : 'anulacion',
    issuer_nif: issuer,
    invoice_number: number,
    issue_date: date,
    invoice_type: alta ? type : null,
    cuota_total: alta ? cuota : null,
    importe_total: alta ? importe : null,
    generated_at: generatedAt,
    huella: { stated, computed, matches: stated === computed },
    chain: { first_record: first, previous, link: first ? 'first' : 'outside', message: null },
    mode,
    qr_url: alta ? qrUrl({ nif: issuer, numserie: number, fecha: date, importe }, mode, environment) : null,
  };
}
