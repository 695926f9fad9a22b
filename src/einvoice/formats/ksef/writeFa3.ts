import { decimalFromNumber, decimalToString } from '../../../invoice/decimal.js';
import { minorToDecimal } from '../../../invoice/money.js';
import type { Party } from '../../../invoice/schema.js';
import { el, leaf, serializeXml, type XmlChild, type XmlElement } from '../../xml.js';
import type { Fa3Amounts } from './fa3Amounts.js';
import { PAYMENT_FORMS, type KsefFields } from './ksefFields.js';
import { addressOf, partyIdOf, type Fa3Address } from './ksefParties.js';
import type { KsefInvoice } from './ksefRequest.js';

/**
 * The FA(3) XML of a checked request (ksefRequest.ts), in the element order of the FA(3) schema
 * 1-0E (`schemat_FA(3)_v1-0E.xsd`, checked by `check-xml ksef-fa3` in the tests). The amounts are
 * fa3Amounts.ts's, computed from the invoice's totals; nothing is computed here.
 */
export const FA3_NAMESPACE = 'http://crd.gov.pl/wzor/2025/06/25/13775/';
const FA3_SYSTEM_INFO = 'invoice-pdf-x402';

const yes = (flag: boolean | undefined) => (flag ? '1' : '2');

export function writeFa3(invoice: KsefInvoice, createdAt: Date): Buffer {
  const { prepared } = invoice;
  const root = el(
    'Faktura',
    null,
    el(
      'Naglowek',
      null,
      leaf('KodFormularza', 'FA', { kodSystemowy: 'FA (3)', wersjaSchemy: '1-0E' }),
      leaf('WariantFormularza', '3'),
      leaf('DataWytworzeniaFa', `${createdAt.toISOString().slice(0, 19)}Z`),
      leaf('SystemInfo', FA3_SYSTEM_INFO),
    ),
    seller(prepared.invoice.seller),
    buyer(prepared.invoice.buyer),
    fa(invoice),
    prepared.invoice.notes?.trim()
      ? el('Stopka', null, el('Informacje', null, leaf('StopkaFaktury', prepared.invoice.notes)))
      : undefined,
  );
  return Buffer.from(serializeXml(root, { '': FA3_NAMESPACE }), 'utf8');
}

const token = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

function address(name: string, found: Fa3Address | undefined): XmlChild {
  if (!found) return undefined;
  return el(name, null, leaf('KodKraju', found.country), leaf('AdresL1', found.line1), leaf('AdresL2', found.line2));
}

function contact(party: Party): XmlChild {
  const email = token(party.email);
  const phone = token(party.phone);
  if (!email && !phone) return undefined;
  return el('DaneKontaktowe', null, leaf('Email', email), leaf('Telefon', phone));
}

function seller(party: Party): XmlElement {
  const id = partyIdOf(party);
  return el(
    'Podmiot1',
    null,
    el('DaneIdentyfikacyjne', null, leaf('NIP', id.kind === 'nip' ? id.nip : ''), leaf('Nazwa', party.name.trim())),
    address('Adres', addressOf(party, 'PL')),
    contact(party),
  );
}

function buyer(party: Party): XmlElement {
  const id = partyIdOf(party);
  const identification =
    id.kind === 'nip'
      ? [leaf('NIP', id.nip)]
      : id.kind === 'eu'
        ? [leaf('KodUE', id.prefix), leaf('NrVatUE', id.number)]
        : id.kind === 'other'
          ? [leaf('KodKraju', id.country), leaf('NrID', id.number)]
          : [leaf('BrakID', '1')];
  const fallbackCountry = id.kind === 'eu' ? (id.prefix === 'EL' ? 'GR' : id.prefix) : 'PL';
  return el(
    'Podmiot2',
    null,
    el('DaneIdentyfikacyjne', null, identification, leaf('Nazwa', party.name.trim())),
    address('Adres', addressOf(party, fallbackCountry)),
    contact(party),
    // JST (a unit of local government) and GV (a VAT group member): 2, no. Required elements.
    leaf('JST', '2'),
    leaf('GV', '2'),
  );
}

function money(amounts: Fa3Amounts, minor: bigint | undefined): string | undefined {
  return minor === undefined ? undefined : minorToDecimal(minor, amounts.digits);
}

function fa(invoice: KsefInvoice): XmlElement {
  const { prepared, ksef, amounts } = invoice;
  const { invoice: json } = prepared;
  const kind = ksef.kind ?? 'VAT';
  const period = json.invoicing_period;
  return el(
    'Fa',
    null,
    leaf('KodWaluty', json.currency),
    leaf('P_1', json.issue_date),
    leaf('P_1M', token(ksef.place_of_issue)),
    leaf('P_2', json.invoice_number.trim()),
    kind === 'ZAL'
      ? leaf('P_6', ksef.advance?.received_on)
      : json.delivery_date
        ? leaf('P_6', json.delivery_date)
        : period?.start && period.end
          ? el('OkresFa', null, leaf('P_6_Od', period.start), leaf('P_6_Do', period.end))
          : undefined,
    amounts.slots.map((slot) => [
      leaf(`P_13_${slot.slot}`, money(amounts, slot.net)),
      leaf(`P_14_${slot.slot}`, money(amounts, slot.tax)),
      slot.tax !== undefined ? leaf(`P_14_${slot.slot}W`, money({ ...amounts, digits: 2 }, slot.taxPln)) : undefined,
    ]),
    leaf('P_15', money(amounts, amounts.total)),
    kind === 'ZAL' && ksef.exchange_rate !== undefined ? leaf('KursWalutyZ', rateText(ksef)) : undefined,
    annotations(invoice),
    leaf('RodzajFaktury', kind),
    kind === 'KOR' ? correction(invoice) : undefined,
    (json.custom_fields ?? []).map((field) =>
      el('DodatkowyOpis', null, leaf('Klucz', field.label.trim()), leaf('Wartosc', field.value.trim())),
    ),
    kind === 'ZAL' ? undefined : lines(invoice),
    payment(invoice),
    json.purchase_order?.trim()
      ? el('WarunkiTransakcji', null, el('Zamowienia', null, leaf('NrZamowienia', json.purchase_order.trim())))
      : undefined,
    kind === 'ZAL' ? order(invoice) : undefined,
  );
}

function rateText(ksef: KsefFields): string | undefined {
  return ksef.exchange_rate === undefined ? undefined : decimalToString(decimalFromNumber(ksef.exchange_rate));
}

function annotations({ ksef, lineCodes }: KsefInvoice): XmlElement {
  const notes = ksef.annotations ?? {};
  const exemption = ksef.exemption;
  const basis = { polish_law: 'P_19A', eu_directive: 'P_19B', other: 'P_19C' } as const;
  const margin = {
    travel_agency: 'P_PMarzy_2',
    used_goods: 'P_PMarzy_3_1',
    works_of_art: 'P_PMarzy_3_2',
    antiques: 'P_PMarzy_3_3',
  } as const;
  return el(
    'Adnotacje',
    null,
    leaf('P_16', yes(notes.cash_accounting)),
    leaf('P_17', yes(notes.self_billing)),
    leaf('P_18', yes(notes.reverse_charge ?? lineCodes.includes('oo'))),
    leaf('P_18A', yes(notes.split_payment)),
    el(
      'Zwolnienie',
      null,
      exemption ? [leaf('P_19', '1'), leaf(basis[exemption.basis], exemption.text.trim())] : leaf('P_19N', '1'),
    ),
    el('NoweSrodkiTransportu', null, leaf('P_22N', '1')),
    leaf('P_23', yes(notes.simplified_triangular)),
    el(
      'PMarzy',
      null,
      notes.margin_scheme ? [leaf('P_PMarzy', '1'), leaf(margin[notes.margin_scheme], '1')] : leaf('P_PMarzyN', '1'),
    ),
  );
}

function correction({ prepared, ksef }: KsefInvoice): XmlChild {
  const preceding = prepared.invoice.preceding_invoice;
  return [
    leaf('PrzyczynaKorekty', token(ksef.correction_reason)),
    leaf('TypKorekty', ksef.correction_type === undefined ? undefined : String(ksef.correction_type)),
    el(
      'DaneFaKorygowanej',
      null,
      leaf('DataWystFaKorygowanej', preceding?.issue_date),
      leaf('NrFaKorygowanej', preceding?.number.trim()),
      ksef.corrected_ksef_number
        ? [leaf('NrKSeF', '1'), leaf('NrKSeFFaKorygowanej', ksef.corrected_ksef_number)]
        : leaf('NrKSeFN', '1'),
    ),
  ];
}

function lines({ prepared, ksef, amounts, lineCodes }: KsefInvoice): XmlElement[] {
  const { invoice, totals } = prepared;
  const sign = amounts.sign;
  return invoice.line_items.map((line, at) => {
    const quantity = decimalFromNumber(line.quantity);
    return el(
      'FaWiersz',
      null,
      leaf('NrWierszaFa', String(at + 1)),
      leaf('P_7', line.description.trim()),
      leaf('Indeks', token(line.item_code)),
      leaf('P_8A', line.unit),
      leaf('P_8B', decimalToString({ ...quantity, coefficient: quantity.coefficient * sign })),
      leaf('P_9A', decimalToString(decimalFromNumber(line.unit_price))),
      leaf('P_11', minorToDecimal((totals.lineAmounts[at] ?? 0n) * sign, totals.digits)),
      leaf('P_12', lineCodes[at]),
      leaf('KursWaluty', rateText(ksef)),
    );
  });
}

function order({ prepared, lineCodes }: KsefInvoice): XmlElement {
  const { invoice, totals } = prepared;
  return el(
    'Zamowienie',
    null,
    leaf('WartoscZamowienia', minorToDecimal(totals.total, totals.digits)),
    invoice.line_items.map((line, at) =>
      el(
        'ZamowienieWiersz',
        null,
        leaf('NrWierszaZam', String(at + 1)),
        leaf('P_7Z', line.description.trim()),
        leaf('IndeksZ', token(line.item_code)),
        leaf('P_8AZ', line.unit),
        leaf('P_8BZ', decimalToString(decimalFromNumber(line.quantity))),
        leaf('P_9AZ', decimalToString(decimalFromNumber(line.unit_price))),
        leaf('P_11NettoZ', minorToDecimal(totals.lineAmounts[at] ?? 0n, totals.digits)),
        leaf('P_12Z', lineCodes[at]),
      ),
    ),
  );
}

function payment({ prepared, ksef }: KsefInvoice): XmlChild {
  const { invoice, totals } = prepared;
  const paid = totals.amountPaid !== 0n && ksef.paid_on !== undefined;
  const full = paid && totals.balanceDue === 0n;
  const iban = invoice.payment?.iban?.replace(/\s+/g, '');
  const form = ksef.payment_form ?? (iban ? 'transfer' : undefined);
  const children: XmlChild[] = [
    full ? [leaf('Zaplacono', '1'), leaf('DataZaplaty', ksef.paid_on)] : undefined,
    paid && !full
      ? [
          leaf('ZnacznikZaplatyCzesciowej', '1'),
          el(
            'ZaplataCzesciowa',
            null,
            leaf('KwotaZaplatyCzesciowej', minorToDecimal(totals.amountPaid, totals.digits)),
            leaf('DataZaplatyCzesciowej', ksef.paid_on),
          ),
        ]
      : undefined,
    invoice.due_date ? el('TerminPlatnosci', null, leaf('Termin', invoice.due_date)) : undefined,
    form ? leaf('FormaPlatnosci', PAYMENT_FORMS[form]) : undefined,
    iban
      ? el('RachunekBankowy', null, leaf('NrRB', iban), leaf('SWIFT', invoice.payment?.bic?.replace(/\s+/g, '')))
      : undefined,
  ];
  return children.some(Boolean) ? el('Platnosc', null, ...children) : undefined;
}
