import type { Decimal } from '../../../invoice/decimal.js';
import { minorToDecimal } from '../../../invoice/money.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import type { Party } from '../../../invoice/schema.js';
import { el, leaf, serializeXml, type XmlElement } from '../../xml.js';
import type { FatturaPAFields } from './fields.js';
import type { FatturaModel, FLine, FSummary } from './model.js';
import { chunks, latin1 } from './text.js';
import { progressiveOf, recipientCodeOf, transmitterOf, vatIdOf } from './transmission.js';

/**
 * FatturaPA 1.2.3 (FPR12, or FPA12 when asked) from a checked request and its model: one header,
 * one body. Element order follows Schema_VFPA12_V1.2.3.xsd; every amount is a value of the model
 * (model.ts), printed with two decimals, so the XML says what validate answers.
 */
export const FATTURAPA_NAMESPACE = 'http://ivaservizi.agenziaentrate.gov.it/docs/xsd/fatture/v1.2';

export function buildFatturaPA(prepared: PreparedInvoice, fields: FatturaPAFields, model: FatturaModel): string {
  const root = el(
    'p:FatturaElettronica',
    { versione: fields.transmission_format },
    header(prepared, fields),
    body(prepared, fields, model),
  );
  return serializeXml(root, { p: FATTURAPA_NAMESPACE });
}

/** Minor units as FatturaPA amount text, two decimals (a 0-digit currency gains ".00"). */
const amount = (minor: bigint, digits: number) =>
  digits >= 2 ? minorToDecimal(minor, digits) : minorToDecimal(minor * 10n ** BigInt(2 - digits), 2);

/** A decimal with between `min` and `max` fraction digits (the request checks refuse more than `max`). */
function fixed({ coefficient, scale }: Decimal, min: number): string {
  // The trailing zeros decimalToString would trim, down to `min` fraction digits, then padded up to
  // `min`: the same text without printing it twice (three of these per line).
  while (scale > min && coefficient % 10n === 0n) {
    coefficient /= 10n;
    scale -= 1;
  }
  return minorToDecimal(coefficient * 10n ** BigInt(Math.max(0, min - scale)), Math.max(scale, min));
}

const text = (value: string | undefined, max: number) =>
  value === undefined || value.trim() === '' ? undefined : latin1(value).trim().slice(0, max);

function header(prepared: PreparedInvoice, fields: FatturaPAFields): XmlElement {
  const { invoice } = prepared;
  const transmitter = transmitterOf(invoice.seller, fields)!;
  const recipient = recipientCodeOf(invoice.buyer, fields) ?? '000000';
  return el(
    'FatturaElettronicaHeader',
    null,
    el(
      'DatiTrasmissione',
      null,
      el('IdTrasmittente', null, leaf('IdPaese', transmitter.country), leaf('IdCodice', transmitter.id)),
      leaf('ProgressivoInvio', progressiveOf(invoice.invoice_number, fields)),
      leaf('FormatoTrasmissione', fields.transmission_format),
      leaf('CodiceDestinatario', recipient),
      leaf('PECDestinatario', fields.recipient_pec),
    ),
    el(
      'CedentePrestatore',
      null,
      el(
        'DatiAnagrafici',
        null,
        idFiscale(invoice.seller),
        leaf('CodiceFiscale', fields.seller_codice_fiscale),
        el('Anagrafica', null, leaf('Denominazione', text(invoice.seller.name, 80))),
        leaf('RegimeFiscale', fields.regime_fiscale),
      ),
      address(invoice.seller, fields.seller_province),
      contacts(invoice.seller),
    ),
    el(
      'CessionarioCommittente',
      null,
      el(
        'DatiAnagrafici',
        null,
        buyerIdFiscale(invoice.buyer, fields),
        leaf('CodiceFiscale', fields.buyer_codice_fiscale),
        el('Anagrafica', null, leaf('Denominazione', text(invoice.buyer.name, 80))),
      ),
      address(invoice.buyer, fields.buyer_province),
    ),
  );
}

function idFiscale(party: Party): XmlElement | undefined {
  const id = vatIdOf(party);
  return id && el('IdFiscaleIVA', null, leaf('IdPaese', id.country), leaf('IdCodice', id.id));
}

/**
 * A foreign buyer without a VAT number is named by its country and the code 99999999999, AdE's
 * convention for a buyer outside Italy with no identifier (control 00417 wants one of the two).
 */
function buyerIdFiscale(buyer: Party, fields: FatturaPAFields): XmlElement | undefined {
  if (buyer.vat_id !== undefined) return idFiscale(buyer);
  if (fields.buyer_codice_fiscale !== undefined || (buyer.country ?? 'IT') === 'IT') return undefined;
  return el('IdFiscaleIVA', null, leaf('IdPaese', buyer.country), leaf('IdCodice', '99999999999'));
}

/** Sede: a foreign postal code that is not 5 digits is written as 00000, as the SDI asks of foreign addresses. */
function address(party: Party, province: string | undefined): XmlElement {
  const postal = party.postal_code !== undefined && /^\d{5}$/.test(party.postal_code) ? party.postal_code : '00000';
  return el(
    'Sede',
    null,
    leaf('Indirizzo', text(party.street, 60)),
    leaf('CAP', postal),
    leaf('Comune', text(party.city, 60)),
    leaf('Provincia', party.country === 'IT' ? province : undefined),
    leaf('Nazione', party.country),
  );
}

function contacts(party: Party): XmlElement | undefined {
  const phone = party.phone?.replace(/[^\x20-\x7e]/g, '');
  const telephone = phone !== undefined && phone.length >= 5 && phone.length <= 12 ? phone : undefined;
  const email =
    party.email !== undefined && party.email.length >= 7 && /^[\x21-\x7e]+$/.test(party.email)
      ? party.email
      : undefined;
  if (telephone === undefined && email === undefined) return undefined;
  return el('Contatti', null, leaf('Telefono', telephone), leaf('Email', email));
}

function body(prepared: PreparedInvoice, fields: FatturaPAFields, model: FatturaModel): XmlElement {
  return el(
    'FatturaElettronicaBody',
    null,
    generalData(prepared, fields, model),
    el(
      'DatiBeniServizi',
      null,
      model.lines.map((line, n) => lineElement(line, n + 1, model.digits)),
      model.summaries.map((summary) => summaryElement(summary, fields, model.digits)),
    ),
    payment(prepared, fields, model),
  );
}

export function documentTypeOf(prepared: PreparedInvoice, fields: FatturaPAFields): string {
  return fields.document_type ?? (prepared.invoice.document_type === 'credit_note' ? 'TD04' : 'TD01');
}

function generalData(prepared: PreparedInvoice, fields: FatturaPAFields, model: FatturaModel): XmlElement {
  const { invoice, totals } = prepared;
  const { withholding, pensionFund: fund, digits } = model;
  const notes = text(invoice.notes, 100_000);
  return el(
    'DatiGenerali',
    null,
    el(
      'DatiGeneraliDocumento',
      null,
      leaf('TipoDocumento', documentTypeOf(prepared, fields)),
      leaf('Divisa', totals.currency),
      leaf('Data', invoice.issue_date),
      leaf('Numero', invoice.invoice_number),
      withholding &&
        el(
          'DatiRitenuta',
          null,
          leaf('TipoRitenuta', withholding.type),
          leaf('ImportoRitenuta', amount(withholding.amount, digits)),
          leaf('AliquotaRitenuta', fixed(withholding.rate, 2)),
          leaf('CausalePagamento', withholding.reason),
        ),
      model.stampDuty && el('DatiBollo', null, leaf('BolloVirtuale', 'SI'), leaf('ImportoBollo', '2.00')),
      fund &&
        el(
          'DatiCassaPrevidenziale',
          null,
          leaf('TipoCassa', fund.type),
          leaf('AlCassa', fixed(fund.rate, 2)),
          leaf('ImportoContributoCassa', amount(fund.amount, digits)),
          leaf('ImponibileCassa', amount(fund.base, digits)),
          leaf('AliquotaIVA', fixed(fund.vatRate, 2)),
          leaf('Ritenuta', fund.withholding ? 'SI' : undefined),
          leaf('Natura', fund.vatRate.coefficient === 0n ? fund.natura : undefined),
        ),
      leaf('ImportoTotaleDocumento', amount(model.total, digits)),
      notes === undefined ? undefined : chunks(notes, 200).map((chunk) => leaf('Causale', chunk)),
    ),
    invoice.purchase_order !== undefined && el('DatiOrdineAcquisto', null, leaf('IdDocumento', invoice.purchase_order)),
    invoice.preceding_invoice &&
      el(
        'DatiFattureCollegate',
        null,
        leaf('IdDocumento', invoice.preceding_invoice.number),
        leaf('Data', invoice.preceding_invoice.issue_date),
      ),
    fields.transport_documents?.map((ddt) =>
      el('DatiDDT', null, leaf('NumeroDDT', text(ddt.number, 20)), leaf('DataDDT', ddt.date)),
    ),
  );
}

function lineElement(line: FLine, number: number, digits: number): XmlElement {
  const negativeQuantity = line.quantity !== undefined && line.quantity.coefficient < 0n;
  const quantity = line.quantity && {
    ...line.quantity,
    coefficient: negativeQuantity ? -line.quantity.coefficient : line.quantity.coefficient,
  };
  const unitPrice = negativeQuantity ? { ...line.unitPrice, coefficient: -line.unitPrice.coefficient } : line.unitPrice;
  return el(
    'DettaglioLinee',
    null,
    leaf('NumeroLinea', String(number)),
    line.itemCode !== undefined &&
      el('CodiceArticolo', null, leaf('CodiceTipo', 'SKU'), leaf('CodiceValore', text(line.itemCode, 35))),
    leaf('Descrizione', text(line.description, 1000) ?? '-'),
    leaf('Quantita', quantity && fixed(quantity, 2)),
    leaf('UnitaMisura', line.unit),
    leaf('PrezzoUnitario', fixed(unitPrice, 2)),
    leaf('PrezzoTotale', amount(line.total, digits)),
    leaf('AliquotaIVA', fixed(line.rate, 2)),
    leaf('Ritenuta', line.withholding ? 'SI' : undefined),
    leaf('Natura', line.natura),
  );
}

function summaryElement(summary: FSummary, fields: FatturaPAFields, digits: number): XmlElement {
  const taxed = summary.rate.coefficient !== 0n;
  return el(
    'DatiRiepilogo',
    null,
    leaf('AliquotaIVA', fixed(summary.rate, 2)),
    leaf('Natura', summary.natura),
    leaf('ImponibileImporto', amount(summary.taxable, digits)),
    leaf('Imposta', amount(summary.tax, digits)),
    leaf('EsigibilitaIVA', taxed ? (fields.vat_collectability ?? 'I') : undefined),
    leaf('RiferimentoNormativo', taxed ? undefined : text(summary.legalReference, 100)),
  );
}

function payment(prepared: PreparedInvoice, fields: FatturaPAFields, model: FatturaModel): XmlElement | undefined {
  const { invoice } = prepared;
  const iban = invoice.payment?.iban?.replace(/ /g, '');
  const method = fields.payment_method ?? (iban ? 'MP05' : undefined);
  if (method === undefined) return undefined;
  return el(
    'DatiPagamento',
    null,
    leaf('CondizioniPagamento', fields.payment_terms ?? 'TP02'),
    el(
      'DettaglioPagamento',
      null,
      leaf('Beneficiario', text(invoice.payment?.account_name, 200)),
      leaf('ModalitaPagamento', method),
      leaf('DataScadenzaPagamento', invoice.due_date),
      leaf('ImportoPagamento', amount(model.payable, model.digits)),
      leaf('IBAN', iban),
      leaf('BIC', invoice.payment?.bic),
      leaf('CodicePagamento', text(invoice.payment?.reference, 60)),
    ),
  );
}
