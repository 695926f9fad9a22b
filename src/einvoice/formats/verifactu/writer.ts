import { el, leaf, serializeXml, type XmlChild, type XmlElement } from '../../xml.js';
import type { AltaRecord, AnulacionRecord, BillingRecord, DetailLine, Recipient, RecordReference } from './model.js';
import { money, percentText, writesRate } from './model.js';
import type { SistemaInformatico } from './system.js';
import { isExemption } from './codes.js';

/**
 * The RegFactuSistemaFacturacion message (AEAT SuministroLR.xsd): the Cabecera naming the obliged
 * issuer and one RegistroFactura per record, each a RegistroAlta or RegistroAnulacion in the
 * XSD's element order, every value the text the model holds (the huella was computed from it).
 * With `soap` the message sits in the SOAP 1.1 envelope AEAT's web service takes.
 */
const BASE =
  'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/';
export const SUMINISTRO_LR = `${BASE}SuministroLR.xsd`;
export const SUMINISTRO_INFORMACION = `${BASE}SuministroInformacion.xsd`;
export const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';

const s = (name: string, ...children: XmlChild[]) => el(`sum1:${name}`, null, ...children);
const t = (name: string, text: string | undefined) => leaf(`sum1:${name}`, text);
const yes = (flag: boolean) => (flag ? 'S' : undefined);

export function writeMessage(records: readonly BillingRecord[], options: { soap?: boolean } = {}): string {
  const [first] = records;
  if (!first) throw new RangeError('a message holds at least one record');
  const message = el(
    'sum:RegFactuSistemaFacturacion',
    null,
    el('sum:Cabecera', null, s('ObligadoEmision', t('NombreRazon', first.issuerName), t('NIF', first.issuerNif))),
    records.map((record) =>
      el('sum:RegistroFactura', null, record.kind === 'alta' ? altaElement(record) : anulacionElement(record)),
    ),
  );
  const namespaces = { sum: SUMINISTRO_LR, sum1: SUMINISTRO_INFORMACION };
  if (!options.soap) return serializeXml(message, namespaces);
  return serializeXml(el('soapenv:Envelope', null, el('soapenv:Header', null), el('soapenv:Body', null, message)), {
    soapenv: SOAP_ENVELOPE,
    ...namespaces,
  });
}

function idFactura(ref: RecordReference, suffix = ''): XmlElement[] {
  return [
    t(`IDEmisorFactura${suffix}`, ref.nif),
    t(`NumSerieFactura${suffix}`, ref.number),
    t(`FechaExpedicionFactura${suffix}`, ref.date),
  ].filter((child): child is XmlElement => child !== undefined);
}

function altaElement(record: AltaRecord): XmlElement {
  return s(
    'RegistroAlta',
    t('IDVersion', '1.0'),
    s('IDFactura', idFactura({ nif: record.issuerNif, number: record.number, date: record.date })),
    t('RefExterna', record.externalReference),
    t('NombreRazonEmisor', record.issuerName),
    t('TipoFactura', record.type),
    t('TipoRectificativa', record.correction),
    invoiceList('FacturasRectificadas', 'IDFacturaRectificada', record.corrected),
    invoiceList('FacturasSustituidas', 'IDFacturaSustituida', record.replaced),
    record.correctedAmounts &&
      s(
        'ImporteRectificacion',
        t('BaseRectificada', record.correctedAmounts.base),
        t('CuotaRectificada', record.correctedAmounts.tax),
        t('CuotaRecargoRectificado', record.correctedAmounts.surcharge),
      ),
    t('FechaOperacion', record.operationDate),
    t('DescripcionOperacion', record.description),
    t('FacturaSimplificadaArt7273', yes(record.simplified7273)),
    t('FacturaSinIdentifDestinatarioArt61d', yes(record.withoutRecipient61d)),
    t('Macrodato', yes(record.macrodato)),
    record.recipients.length > 0 &&
      s(
        'Destinatarios',
        record.recipients.map((recipient) => party('IDDestinatario', recipient)),
      ),
    s('Desglose', record.details.map(detailElement)),
    t('CuotaTotal', record.cuotaTotal),
    t('ImporteTotal', record.importeTotal),
    chaining(record),
    systemElement(record.system),
    t('FechaHoraHusoGenRegistro', record.generatedAt),
    t('TipoHuella', '01'),
    t('Huella', record.huella),
  );
}

/** A list of invoices (FacturasRectificadas, FacturasSustituidas), absent when empty. */
function invoiceList(name: string, itemName: string, refs: readonly RecordReference[]): XmlElement | false {
  return (
    refs.length > 0 &&
    s(
      name,
      refs.map((ref) => s(itemName, idFactura(ref))),
    )
  );
}

function anulacionElement(record: AnulacionRecord): XmlElement {
  return s(
    'RegistroAnulacion',
    t('IDVersion', '1.0'),
    s('IDFactura', idFactura({ nif: record.issuerNif, number: record.number, date: record.date }, 'Anulada')),
    t('RefExterna', record.externalReference),
    chaining(record),
    systemElement(record.system),
    t('FechaHoraHusoGenRegistro', record.generatedAt),
    t('TipoHuella', '01'),
    t('Huella', record.huella),
  );
}

function chaining(record: BillingRecord): XmlElement {
  const { previous } = record;
  return s(
    'Encadenamiento',
    previous ? s('RegistroAnterior', idFactura(previous), t('Huella', previous.huella)) : t('PrimerRegistro', 'S'),
  );
}

function party(name: string, recipient: Recipient): XmlElement {
  const other = recipient.other;
  return s(
    name,
    t('NombreRazon', recipient.name),
    t('NIF', recipient.nif),
    other && s('IDOtro', t('CodigoPais', other.country), t('IDType', other.type), t('ID', other.id)),
  );
}

function detailElement(line: DetailLine): XmlElement {
  const q = line.qualification;
  const exempt = q !== undefined && isExemption(q);
  const rated = writesRate(line);
  return s(
    'DetalleDesglose',
    t('Impuesto', line.impuesto),
    t('ClaveRegimen', line.regime),
    exempt ? t('OperacionExenta', q) : t('CalificacionOperacion', q),
    t('TipoImpositivo', rated ? percentText(line.rate) : undefined),
    t('BaseImponibleOimporteNoSujeto', money(line.baseMinor)),
    t('CuotaRepercutida', rated ? money(line.taxMinor) : undefined),
    line.surchargeRate && t('TipoRecargoEquivalencia', percentText(line.surchargeRate)),
    line.surchargeRate && t('CuotaRecargoEquivalencia', money(line.surchargeMinor)),
  );
}

function systemElement(system: SistemaInformatico): XmlElement {
  const vat = system.producerVatId;
  return s(
    'SistemaInformatico',
    t('NombreRazon', system.producerName),
    system.producerNif !== undefined
      ? t('NIF', system.producerNif)
      : vat !== undefined && s('IDOtro', t('IDType', '02'), t('ID', vat)),
    t('NombreSistemaInformatico', system.systemName),
    t('IdSistemaInformatico', system.systemId),
    t('Version', system.version),
    t('NumeroInstalacion', system.installation),
    t('TipoUsoPosibleSoloVerifactu', system.onlyVerifactu ? 'S' : 'N'),
    t('TipoUsoPosibleMultiOT', 'S'),
    t('IndicadorMultiplesOT', 'S'),
  );
}
