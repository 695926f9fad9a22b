import { kid, kids, parseXmlTree, type XNode } from '../../../xml/xmlTree.js';
import { rejected } from '../../../errors.js';
import { altaHuella, anulacionHuella } from './huella.js';
import { qrUrl, type AeatEnvironment, type VerifactuMode } from './qr.js';
import { SUMINISTRO_INFORMACION } from './writer.js';

/**
 * A VERI*FACTU record, or a message (RegFactuSistemaFacturacion, bare or in its SOAP envelope)
 * holding several, read back: each record's huella recomputed from its own fields as written,
 * each link of the chain inside the message checked (record n names record n-1 and its huella),
 * and the QR URL of each invoice. A tampered amount makes that record's huella not match and
 * nothing else is lost: every other record is still reported.
 */
interface RecordFinding {
  index: number;
  kind: 'alta' | 'anulacion';
  issuer_nif: string;
  invoice_number: string;
  issue_date: string;
  invoice_type: string | null;
  cuota_total: string | null;
  importe_total: string | null;
  generated_at: string;
  huella: { stated: string; computed: string; matches: boolean };
  chain: {
    first_record: boolean;
    previous: { issuer_nif: string; invoice_number: string; issue_date: string; huella: string } | null;
    /** first: PrimerRegistro; linked: names the message's previous record and its huella; broken: names another; outside: the previous record is not in this message. */
    link: 'first' | 'linked' | 'broken' | 'outside';
    message: string | null;
  };
  qr_url: string | null;
}

export interface RecordsReport {
  records: RecordFinding[];
  huellas_match: boolean;
  chain_intact: boolean;
}

/** Every RegistroAlta and RegistroAnulacion in document order (a record may be the root itself). */
function findRecords(node: XNode, out: XNode[] = []): XNode[] {
  if (node.ns === SUMINISTRO_INFORMACION && (node.name === 'RegistroAlta' || node.name === 'RegistroAnulacion')) {
    out.push(node);
    return out;
  }
  for (const child of node.children) findRecords(child, out);
  return out;
}

const textOf = (node: XNode | undefined, ...path: string[]): string => {
  let at = node;
  for (const name of path) at = kid(at, name);
  return at?.text ?? '';
};

export function readRecords(xml: string, options: { environment?: AeatEnvironment } = {}): RecordsReport {
  const root = parseXmlTree(xml, {
    maxChars: 20_000_000,
    maxDepth: 64,
    maxElements: 2_000_000,
    tooLarge: (message) => rejected('einvoice_too_large', message, [{ path: '', code: 'einvoice_too_large', message }]),
  });
  const mode: VerifactuMode =
    kids(kid(findBody(root), 'Cabecera'), 'RemisionRequerimiento').length > 0 ? 'no_verifactu' : 'verifactu';
  const records = findRecords(root).map((node, index) =>
    readOne(node, index, mode, options.environment ?? 'production'),
  );
  linkChain(records);
  return {
    records,
    huellas_match: records.every((record) => record.huella.matches),
    chain_intact: records.every((record) => record.chain.link !== 'broken'),
  };
}

function findBody(root: XNode): XNode | undefined {
  if (root.name === 'RegFactuSistemaFacturacion') return root;
  return kid(kid(root, 'Body'), 'RegFactuSistemaFacturacion');
}

function readOne(node: XNode, index: number, mode: VerifactuMode, environment: AeatEnvironment): RecordFinding {
  const alta = node.name === 'RegistroAlta';
  const suffix = alta ? '' : 'Anulada';
  const id = kid(node, 'IDFactura');
  const issuer = textOf(id, `IDEmisorFactura${suffix}`);
  const number = textOf(id, `NumSerieFactura${suffix}`);
  const date = textOf(id, `FechaExpedicionFactura${suffix}`);
  const chaining = kid(node, 'Encadenamiento');
  const previousNode = kid(chaining, 'RegistroAnterior');
  const previous = previousNode
    ? {
        issuer_nif: textOf(previousNode, 'IDEmisorFactura'),
        invoice_number: textOf(previousNode, 'NumSerieFactura'),
        issue_date: textOf(previousNode, 'FechaExpedicionFactura'),
        huella: textOf(previousNode, 'Huella'),
      }
    : null;
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
    qr_url: alta ? qrUrl({ nif: issuer, numserie: number, fecha: date, importe }, mode, environment) : null,
  };
}

/** Record n of a message must name record n-1 (its identifiers and stated huella); the first names one outside. */
function linkChain(records: RecordFinding[]): void {
  for (let at = 1; at < records.length; at += 1) {
    const record = records[at]!;
    const before = records[at - 1]!;
    const { previous } = record.chain;
    if (previous === null) {
      record.chain.link = 'broken';
      record.chain.message = `record ${at} is marked PrimerRegistro, but record ${at - 1} precedes it in this message`;
      continue;
    }
    const namesBefore =
      previous.issuer_nif === before.issuer_nif &&
      previous.invoice_number === before.invoice_number &&
      previous.issue_date === before.issue_date;
    if (!namesBefore) {
      record.chain.link = 'broken';
      record.chain.message = `record ${at} names ${previous.invoice_number} of ${previous.issue_date} as its previous record, but record ${at - 1} is ${before.invoice_number} of ${before.issue_date}`;
    } else if (previous.huella !== before.huella.stated) {
      record.chain.link = 'broken';
      record.chain.message = `record ${at} carries ${previous.huella} as the huella of record ${at - 1}, which states ${before.huella.stated}`;
    } else record.chain.link = 'linked';
  }
}
