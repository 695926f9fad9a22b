import type { InAddress, InboundInvoice, InBreakdown, InLine, InParty } from '../../../invoice/inboundInvoice.js';
import { microsToText, parseDecimal, roundTo } from '../../inbound/decimalText.js';
import { Reader } from '../../inbound/reader.js';
import { tooManyLines } from '../../inbound/refusals.js';
import { INBOUND_LIMITS } from '../../inbound/limits.js';
import type { XNode } from '../../../xml/xmlTree.js';
import {
  DOCUMENT_TYPE_NAMES,
  ESIGIBILITA_NAMES,
  named,
  NATURA_NAMES,
  PAYMENT_METHOD_NAMES,
  PAYMENT_TERMS_NAMES,
  REGIME_NAMES,
} from './legalNames.js';
import { fatturaPALegalTerms } from './readerLegalTerms.js';
import { FATTURAPA_NAMESPACE } from './writer.js';

/**
 * A received FatturaPA (FPR12 or FPA12) as the inbound model: one InboundInvoice per
 * FatturaElettronicaBody (a file may carry several documents of one seller to one buyer), the
 * header's parties in each. Natura is kept as the VAT category of a 0 % line and summary (so each
 * DatiRiepilogo compares with its own lines), the pension fund as a document charge (the SDI adds
 * it to its rate's ImponibileImporto), ImportoTotaleDocumento as the grand total. Everything not
 * mapped stays an other value with its element path.
 */
export function isFatturaPARoot(root: XNode): boolean {
  return root.ns === FATTURAPA_NAMESPACE && root.name === 'FatturaElettronica';
}

/** TD04 and TD08 (credit notes) are EN 16931's 381; every other document type reads as an invoice (380). */
const CREDIT_TYPES = new Set(['TD04', 'TD08']);

export function readFatturaPA(root: XNode): InboundInvoice[] {
  const bodies = root.children.filter((child) => child.name === 'FatturaElettronicaBody');
  // The bound on lines holds for the file: every body is printed, so many small bodies cost what many lines do.
  const lines = bodies.reduce((sum, body) => sum + countLines(body), 0);
  if (lines > INBOUND_LIMITS.lines) throw tooManyLines(lines);
  return bodies.map((body, at) => readBody(root, body, bodies.length > 1 ? at : undefined));
}

const countLines = (body: XNode) =>
  body.children
    .filter((child) => child.name === 'DatiBeniServizi')
    .reduce((sum, goods) => sum + goods.children.filter((child) => child.name === 'DettaglioLinee').length, 0);

function readBody(file: XNode, body: XNode, only: number | undefined): InboundInvoice {
  const r = new Reader();
  // The other bodies are other documents, not this one's other values: each body is read (and its
  // leftovers walked) with the header alone beside it, so a file of many bodies costs linear time.
  const root = {
    ...file,
    children: file.children.filter((child) => child.name !== 'FatturaElettronicaBody' || child === body),
  };
  const header = r.node(root, 'FatturaElettronicaHeader');
  const general = r.node(body, 'DatiGenerali', 'DatiGeneraliDocumento');
  const goods = r.node(body, 'DatiBeniServizi');
  const typeCode = r.text(general, 'TipoDocumento') ?? 'TD01';
  const lineNodes = r.all(goods, 'DettaglioLinee');
  if (lineNodes.length > INBOUND_LIMITS.lines) throw tooManyLines(lineNodes.length);
  const payments = r.all(body, 'DatiPagamento').flatMap((data) => r.all(data, 'DettaglioPagamento'));
  const funds = r.all(general, 'DatiCassaPrevidenziale').map((fund) => ({
    charge: true,
    amount: r.text(fund, 'ImportoContributoCassa') ?? '0',
    base: r.text(fund, 'ImponibileCassa'),
    percent: r.text(fund, 'AlCassa'),
    reason: `Cassa previdenziale ${r.text(fund, 'TipoCassa') ?? ''}`.trim(),
    reasonCode: r.text(fund, 'TipoCassa'),
    category: categoryOf(r.text(fund, 'AliquotaIVA'), r.text(fund, 'Natura')),
    rate: r.text(fund, 'AliquotaIVA'),
    printedAs: 'pension_fund' as const,
  }));
  const summaries = r.all(goods, 'DatiRiepilogo').map((summary) => breakdownOf(r, summary));
  const amounts = statedTotals(summaries, r.text(general, 'ImportoTotaleDocumento'));
  const due = amountDue(
    amounts.grandTotal,
    payments.map((payment) => r.text(payment, 'ImportoPagamento')),
  );
  const rounding = r.text(general, 'Arrotondamento');
  const format = r.attr(root, 'versione') ?? 'FPR12';
  const invoice: InboundInvoice = {
    syntax: 'fatturapa',
    document: 'FatturaElettronica',
    syntaxLabel: 'FatturaPA',
    envelope: null,
    customization: `FatturaPA 1.2 ${format}`,
    profile: typeCode,
    typeCode: CREDIT_TYPES.has(typeCode) ? '381' : '380',
    number: r.text(general, 'Numero') ?? '',
    issueDate: r.text(general, 'Data') ?? '',
    dueDate: payments.map((payment) => r.text(payment, 'DataScadenzaPagamento')).find((date) => date !== undefined),
    taxPointDate: undefined,
    currency: r.text(general, 'Divisa') ?? 'EUR',
    taxCurrency: undefined,
    notes: [
      { subject: 'TipoDocumento', text: named(typeCode, DOCUMENT_TYPE_NAMES) ?? typeCode },
      ...italianAmounts(r, general, payments),
      ...r.all(general, 'Causale').map((node) => ({ subject: undefined, text: r.text(node) ?? '' })),
      // Which body of the file this is (the re-issued JSON's notes keep this text; the page prints "Document N").
      ...(only === undefined
        ? []
        : [
            {
              subject: 'FatturaElettronicaBody',
              text: `FatturaElettronicaBody ${only + 1}`,
              printedAs: 'document_number' as const,
            },
          ]),
    ].filter((note) => note.text !== ''),
    references: references(r, body),
    seller: party(r, r.node(header, 'CedentePrestatore')),
    buyer: party(r, r.node(header, 'CessionarioCommittente')),
    payee: undefined,
    taxRepresentative:
      header && r.node(header, 'RappresentanteFiscale') ? party(r, r.node(header, 'RappresentanteFiscale')) : undefined,
    delivery: undefined,
    periodStart: undefined,
    periodEnd: undefined,
    paymentMeans: payments.map((payment) => ({
      code: named(r.text(payment, 'ModalitaPagamento'), PAYMENT_METHOD_NAMES),
      text: r.text(payment, 'IstitutoFinanziario'),
      account: r.text(payment, 'IBAN'),
      accountName: r.text(payment, 'Beneficiario'),
      bic: r.text(payment, 'BIC'),
      card: undefined,
      mandate: undefined,
      debitedAccount: undefined,
    })),
    paymentReference: payments.map((payment) => r.text(payment, 'CodicePagamento')).find((code) => code !== undefined),
    paymentTerms: named(r.text(body, 'DatiPagamento', 'CondizioniPagamento'), PAYMENT_TERMS_NAMES),
    allowances: funds,
    breakdown: summaries,
    totals: {
      lineTotal: undefined,
      allowanceTotal: undefined,
      chargeTotal: funds.length > 0 ? microsToText(roundTo(sumOf(funds.map((fund) => fund.amount)), 2)) : undefined,
      taxBasis: amounts.taxBasis,
      taxTotal: amounts.taxTotal,
      taxTotalAccounting: undefined,
      grandTotal: amounts.grandTotal,
      prepaid: due.withheld,
      rounding,
      duePayable: due.payable,
    },
    lines: lineNodes.map((line) => lineOf(r, line)),
    attachments: r.all(body, 'Allegati').map((attachment, at) => {
      const content = r.node(attachment, 'Attachment');
      r.consume(content);
      return {
        id: String(at + 1),
        description: r.text(attachment, 'DescrizioneAttachment'),
        filename: r.text(attachment, 'NomeAttachment'),
        mimeCode: r.text(attachment, 'FormatoAttachment'),
        bytes: content ? Math.floor((content.text.replace(/\s/g, '').length * 3) / 4) : undefined,
        uri: undefined,
      };
    }),
    otherValues: [],
  };
  // The codes read by their Italian legal names, printed beside the page's own words (readerLegalTerms.ts).
  invoice.legalTerms = fatturaPALegalTerms(r, r.node(header, 'CedentePrestatore'), goods);
  return { ...invoice, otherValues: r.leftovers(root, () => null) };
}

/**
 * FatturaPA states no tax basis or VAT total as such: they are the sums of its DatiRiepilogo; its
 * total is ImportoTotaleDocumento, which is optional (AdE's own examples leave it out), and then
 * those two sums added, which the SDI's controls tie to the lines (00421, 00422).
 */
function statedTotals(
  summaries: InBreakdown[],
  documentTotal: string | undefined,
): { taxBasis: string | undefined; taxTotal: string | undefined; grandTotal: string | undefined } {
  if (summaries.length === 0) return { taxBasis: undefined, taxTotal: undefined, grandTotal: documentTotal };
  const basis = sumOf(summaries.map((summary) => summary.basis));
  const tax = sumOf(summaries.map((summary) => summary.tax));
  return {
    taxBasis: microsToText(roundTo(basis, 2)),
    taxTotal: microsToText(roundTo(tax, 2)),
    grandTotal: documentTotal ?? microsToText(roundTo(basis + tax, 2)),
  };
}

/**
 * The amount to pay is what DatiPagamento asks (ImportoPagamento): the total less the withholding
 * (ritenuta), which the buyer pays to the tax office instead. It is read as the amount due, and the
 * difference as already settled (BT-113), so the totals add up and a payment QR code asks for the
 * amount the seller is owed, not the document total.
 */
function amountDue(
  grandTotal: string | undefined,
  payments: (string | undefined)[],
): { payable: string | undefined; withheld: string | undefined } {
  const stated = payments.filter((amount): amount is string => amount !== undefined);
  const total = parseDecimal(grandTotal);
  if (stated.length === 0 || total === undefined) return { payable: grandTotal, withheld: undefined };
  const payable = roundTo(sumOf(stated), 2);
  return payable === roundTo(total, 2) || payable > total
    ? { payable: grandTotal, withheld: undefined }
    : { payable: microsToText(payable), withheld: microsToText(roundTo(total, 2) - payable) };
}

const sumOf = (values: (string | undefined)[]) =>
  values.reduce<bigint>((sum, value) => sum + (parseDecimal(value) ?? 0n), 0n);

/**
 * What FatturaPA adds to the amounts, printed as notes with their Italian names: the withholding
 * (ritenuta), the stamp duty (bollo) and the net amount to pay (ImportoPagamento).
 */
function italianAmounts(r: Reader, general: XNode | undefined, payments: XNode[]): InboundInvoice['notes'] {
  const out: InboundInvoice['notes'] = [];
  for (const withholding of r.all(general, 'DatiRitenuta'))
    out.push({
      subject: 'DatiRitenuta',
      printedAs: 'withholding',
      text: `Ritenuta ${r.text(withholding, 'TipoRitenuta') ?? ''} ${r.text(withholding, 'AliquotaRitenuta') ?? ''} %: ${r.text(withholding, 'ImportoRitenuta') ?? ''} (causale ${r.text(withholding, 'CausalePagamento') ?? ''})`,
    });
  const stamp = r.node(general, 'DatiBollo');
  if (stamp)
    out.push({
      subject: 'DatiBollo',
      printedAs: 'stamp_duty',
      text: `Imposta di bollo${r.text(stamp, 'BolloVirtuale') === 'SI' ? ' virtuale' : ''}: ${r.text(stamp, 'ImportoBollo') ?? ''}`,
    });
  for (const payment of payments) {
    const amount = r.text(payment, 'ImportoPagamento');
    if (amount !== undefined)
      out.push({
        subject: 'ImportoPagamento',
        printedAs: 'net_to_pay',
        text: `Netto a pagare: ${amount}${r.text(payment, 'DataScadenzaPagamento') ? ` (scadenza ${r.text(payment, 'DataScadenzaPagamento')})` : ''}`,
      });
  }
  return out;
}

/** A 0 % amount is in the category of its Natura (N4, N2.2, …), a taxed one in S. */
function categoryOf(rate: string | undefined, natura: string | undefined): string {
  return natura ?? (Number(rate ?? '0') === 0 ? 'Z' : 'S');
}

function references(r: Reader, body: XNode): { bt: string; value: string }[] {
  const general = r.node(body, 'DatiGenerali');
  const out: { bt: string; value: string }[] = [];
  const add = (bt: string, element: string) => {
    for (const node of r.all(general, element)) {
      const id = r.text(node, 'IdDocumento');
      const date = r.text(node, 'Data');
      if (id !== undefined) out.push({ bt, value: date ? `${id} (${date})` : id });
    }
  };
  add('BT-13', 'DatiOrdineAcquisto');
  add('BT-12', 'DatiContratto');
  add('BT-25', 'DatiFattureCollegate');
  add('BT-15', 'DatiRicezione');
  for (const ddt of r.all(general, 'DatiDDT')) {
    const number = r.text(ddt, 'NumeroDDT');
    if (number !== undefined) out.push({ bt: 'BT-16', value: `${number} (${r.text(ddt, 'DataDDT') ?? ''})` });
  }
  return out;
}

function party(r: Reader, node: XNode | undefined): InParty {
  const data = r.node(node, 'DatiAnagrafici');
  const vat = r.node(data, 'IdFiscaleIVA');
  const country = r.text(vat, 'IdPaese');
  const code = r.text(vat, 'IdCodice');
  const registry = r.node(data, 'Anagrafica');
  const name =
    r.text(registry, 'Denominazione') ??
    [r.text(registry, 'Titolo'), r.text(registry, 'Nome'), r.text(registry, 'Cognome')].filter(Boolean).join(' ');
  const fiscalCode = r.text(data, 'CodiceFiscale');
  const regime = r.text(data, 'RegimeFiscale');
  return {
    name,
    tradingName: undefined,
    ids: fiscalCode ? [`CF: ${fiscalCode}`] : [],
    legalId: undefined,
    vatId: code ? `${country ?? ''}${code}` : undefined,
    taxRegistration: undefined,
    legalInfo: regime ? `Regime fiscale ${named(regime, REGIME_NAMES)}` : undefined,
    endpoint: undefined,
    address: addressOf(r, r.node(node, 'Sede')),
    contactName: undefined,
    phone: r.text(node, 'Contatti', 'Telefono'),
    email: r.text(node, 'Contatti', 'Email'),
  };
}

function addressOf(r: Reader, node: XNode | undefined): InAddress | undefined {
  if (!node) return undefined;
  const street = [r.text(node, 'Indirizzo'), r.text(node, 'NumeroCivico')].filter(Boolean).join(' ');
  return {
    lines: street ? [street] : [],
    city: r.text(node, 'Comune'),
    postalCode: r.text(node, 'CAP'),
    subdivision: r.text(node, 'Provincia'),
    country: r.text(node, 'Nazione'),
  };
}

function lineOf(r: Reader, node: XNode): InLine {
  const rate = r.text(node, 'AliquotaIVA');
  const codes = r.all(node, 'CodiceArticolo');
  return {
    id: r.text(node, 'NumeroLinea') ?? '',
    note: undefined,
    name: r.text(node, 'Descrizione') ?? '',
    description: undefined,
    sellerItemId:
      codes.length > 0
        ? `${r.text(codes[0], 'CodiceTipo') ?? ''}: ${r.text(codes[0], 'CodiceValore') ?? ''}`
        : undefined,
    buyerItemId: undefined,
    standardItemId: undefined,
    // A line without Quantita is one unit at PrezzoUnitario (its PrezzoTotale).
    quantity: r.text(node, 'Quantita') ?? '1',
    unitCode: r.text(node, 'UnitaMisura'),
    net: r.text(node, 'PrezzoTotale') ?? '0',
    price: r.text(node, 'PrezzoUnitario') ?? '0',
    baseQuantity: undefined,
    grossPrice: undefined,
    priceDiscount: undefined,
    category: categoryOf(rate, r.text(node, 'Natura')),
    rate,
    allowances: r.all(node, 'ScontoMaggiorazione').map((discount) => ({
      charge: r.text(discount, 'Tipo') === 'MG',
      amount: r.text(discount, 'Importo') ?? '0',
      base: undefined,
      percent: r.text(discount, 'Percentuale'),
      reason: undefined,
      reasonCode: undefined,
      category: undefined,
      rate: undefined,
    })),
    periodStart: r.text(node, 'DataInizioPeriodo'),
    periodEnd: r.text(node, 'DataFinePeriodo'),
    facts: [],
  };
}

function breakdownOf(r: Reader, node: XNode): InBreakdown {
  const rate = r.text(node, 'AliquotaIVA');
  const natura = r.text(node, 'Natura');
  return {
    category: categoryOf(rate, natura),
    rate,
    basis: r.text(node, 'ImponibileImporto') ?? '0',
    tax: r.text(node, 'Imposta') ?? '0',
    exemptionReason:
      [r.text(node, 'RiferimentoNormativo'), named(r.text(node, 'EsigibilitaIVA'), ESIGIBILITA_NAMES)]
        .filter(Boolean)
        .join(' · ') || undefined,
    exemptionCode: natura === undefined ? undefined : NATURA_NAMES[natura],
  };
}
