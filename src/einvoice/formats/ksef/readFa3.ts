import type { InboundInvoice, InLine, InParty } from '../../../invoice/inboundInvoice.js';
import { divide, microsToText, HUNDRED, multiply, parseDecimal, roundTo } from '../../inbound/decimalText.js';
import { Reader } from '../../inbound/reader.js';
import type { XNode } from '../../../xml/xmlTree.js';
import { readFa3Attachment } from './fa3Attachment.js';
import { fa3LegalTerms } from './fa3LegalTerms.js';
import { fa3ReissueFields } from './fa3ReissueFields.js';
import { compareFa3Totals } from './fa3Totals.js';
import { categoryOfCode } from './rateCodes.js';
import { FA3_NAMESPACE } from './writeFa3.js';

type InBreakdown = InboundInvoice['breakdown'][number];

/**
 * A received FA(3) (root Faktura in FA(3)'s namespace, already parsed by the strict reader,
 * src/xml/xmlTree.ts) read into the inbound model the inspect answer and the PDF use:
 * parties by NIP / EU VAT number / other id, lines with their rate codes as EN 16931 categories,
 * the VAT breakdown from P_13_x / P_14_x, P_15 as the grand total. A correction's "before" lines
 * (StanPrzed) count negative, so the lines add up to the correction's difference. Every value
 * the model has no place for is kept as an other value, with its element path.
 */
export const isFa3Root = (root: XNode): boolean => root.ns === FA3_NAMESPACE && root.name === 'Faktura';

/** Where the 4 rates each P_13_x/P_14_x pair may hold are told apart by the lines' codes. */
const SLOT_RATES: [string, string, string[]][] = [
  ['1', 'S', ['23', '22']],
  ['2', 'S', ['8', '7']],
  ['3', 'S', ['5']],
  ['4', 'S', ['4', '3']],
  ['5', 'S', []],
  ['6_1', 'Z', []],
  ['6_2', 'K', []],
  ['6_3', 'G', []],
  ['7', 'E', []],
  ['8', 'O', []],
  ['9', 'O', []],
  ['10', 'AE', []],
  ['11', 'O', []],
];

export function readFa3(root: XNode): InboundInvoice {
  const r = new Reader();
  const fa = r.node(root, 'Fa');
  const header = r.node(root, 'Naglowek', 'KodFormularza');
  r.text(root, 'Naglowek', 'KodFormularza');
  const customization = `${r.attr(header, 'kodSystemowy') ?? 'FA'} ${r.attr(header, 'wersjaSchemy') ?? ''}`.trim();
  const lines = r.all(fa, 'FaWiersz').map((line) => readLine(r, line));
  const breakdown = readBreakdown(r, fa, lines);
  const totals = readTotals(r, fa, breakdown);
  const kind = r.text(fa, 'RodzajFaktury') ?? '';
  const invoice: InboundInvoice = {
    syntax: 'fa3',
    document: 'Faktura',
    syntaxLabel: `KSeF ${kind}`,
    envelope: null,
    customization,
    profile: undefined,
    typeCode: kind,
    number: r.text(fa, 'P_2') ?? '',
    issueDate: r.text(fa, 'P_1') ?? '',
    dueDate: r.text(fa, 'Platnosc', 'TerminPlatnosci', 'Termin'),
    taxPointDate: undefined,
    currency: r.text(fa, 'KodWaluty') ?? '',
    taxCurrency: totals.taxTotalAccounting !== undefined ? 'PLN' : undefined,
    notes: readNotes(r, root, fa),
    references: readReferences(r, fa),
    seller: readParty(r, r.node(root, 'Podmiot1'), r.text(root, 'Podmiot1', 'PrefiksPodatnika')),
    buyer: readParty(r, r.node(root, 'Podmiot2'), undefined),
    payee: undefined,
    taxRepresentative: undefined,
    delivery: r.text(fa, 'P_6')
      ? { name: undefined, locationId: undefined, address: undefined, date: r.text(fa, 'P_6') }
      : undefined,
    periodStart: r.text(fa, 'OkresFa', 'P_6_Od'),
    periodEnd: r.text(fa, 'OkresFa', 'P_6_Do'),
    paymentMeans: readPaymentMeans(r, fa),
    paymentReference: undefined,
    paymentTerms: undefined,
    allowances: [],
    breakdown,
    totals,
    lines,
    attachments: [],
    otherValues: [],
    reissueFields: { ksef: fa3ReissueFields(r, fa, kind) },
  };
  // A corrected KSeF number is printed as a reference too.
  const correctedNumber = r.text(fa, 'DaneFaKorygowanej', 'NrKSeFFaKorygowanej');
  if (correctedNumber) invoice.references.push({ bt: 'NrKSeFFaKorygowanej', value: correctedNumber });
  invoice.ownTotals = compareFa3Totals(r, fa);
  invoice.legalTerms = fa3LegalTerms(r, fa, kind);
  markRoutine(r, root, fa);
  invoice.otherValues = r.leftovers(root, () => null);
  const dataBlocks = readFa3Attachment(root);
  if (dataBlocks) invoice.dataBlocks = dataBlocks;
  return invoice;
}

const sum = (values: (string | undefined)[]) =>
  microsToText(values.reduce<bigint>((total, value) => total + (parseDecimal(value) ?? 0n), 0n));

/** The totals: the breakdown's sums, P_15, what was paid (Zaplacono, partial payments) and what is due. */
function readTotals(r: Reader, fa: XNode | undefined, breakdown: InBreakdown[]): InboundInvoice['totals'] {
  const grandTotal = r.text(fa, 'P_15');
  const paid = r.text(fa, 'Platnosc', 'Zaplacono') === '1' ? grandTotal : undefined;
  const partial = r
    .all(r.node(fa, 'Platnosc'), 'ZaplataCzesciowa')
    .map((part) => r.text(part, 'KwotaZaplatyCzesciowej'));
  const prepaid = paid ?? (partial.length > 0 ? sum(partial) : undefined);
  const settled = r.text(fa, 'Rozliczenie', 'DoZaplaty');
  const taxPln = SLOT_RATES.slice(0, 5).map(([slot]) => r.text(fa, `P_14_${slot}W`));
  return {
    lineTotal: undefined,
    allowanceTotal: undefined,
    chargeTotal: undefined,
    taxBasis: sum(breakdown.map((group) => group.basis)),
    taxTotal: sum(breakdown.map((group) => group.tax)),
    taxTotalAccounting: taxPln.some((value) => value !== undefined) ? sum(taxPln) : undefined,
    grandTotal,
    prepaid,
    rounding: undefined,
    duePayable:
      settled ??
      (prepaid !== undefined && grandTotal !== undefined
        ? microsToText((parseDecimal(grandTotal) ?? 0n) - (parseDecimal(prepaid) ?? 0n))
        : grandTotal),
  };
}

function readNotes(r: Reader, root: XNode, fa: XNode | undefined): InboundInvoice['notes'] {
  return [
    ...r
      .all(fa, 'DodatkowyOpis')
      .map((note) => ({ subject: r.text(note, 'Klucz'), text: r.text(note, 'Wartosc') ?? '' })),
    ...r
      .all(r.node(root, 'Stopka'), 'Informacje')
      .map((info) => ({ subject: undefined, text: r.text(info, 'StopkaFaktury') ?? '' }))
      .filter((note) => note.text !== ''),
  ];
}

/** The corrected invoice (BT-25) and the orders (BT-13). */
function readReferences(r: Reader, fa: XNode | undefined): InboundInvoice['references'] {
  const corrected = r.node(fa, 'DaneFaKorygowanej');
  return [
    ...(corrected
      ? [
          {
            bt: 'BT-25',
            value: `${r.text(corrected, 'NrFaKorygowanej') ?? ''} (${r.text(corrected, 'DataWystFaKorygowanej') ?? ''})`,
          },
        ]
      : []),
    ...r.all(r.node(fa, 'WarunkiTransakcji'), 'Zamowienia').flatMap((order) => {
      const number = r.text(order, 'NrZamowienia');
      return number ? [{ bt: 'BT-13', value: number }] : [];
    }),
  ];
}

function readPaymentMeans(r: Reader, fa: XNode | undefined): InboundInvoice['paymentMeans'] {
  return r.all(r.node(fa, 'Platnosc'), 'RachunekBankowy').map((account) => ({
    code: r.text(fa, 'Platnosc', 'FormaPlatnosci'),
    text: r.text(account, 'NazwaBanku'),
    account: r.text(account, 'NrRB'),
    accountName: r.text(account, 'OpisRachunku'),
    bic: r.text(account, 'SWIFT'),
    card: undefined,
    mandate: undefined,
    debitedAccount: undefined,
  }));
}

function readParty(r: Reader, node: XNode | undefined, prefix: string | undefined): InParty {
  const id = r.node(node, 'DaneIdentyfikacyjne');
  const nip = r.text(id, 'NIP');
  const euPrefix = r.text(id, 'KodUE');
  const euNumber = r.text(id, 'NrVatUE');
  const otherId = r.text(id, 'NrID');
  const otherCountry = r.text(id, 'KodKraju');
  const address = r.node(node, 'Adres');
  const contacts = r.all(node, 'DaneKontaktowe');
  return {
    name: r.text(id, 'Nazwa') ?? '',
    tradingName: undefined,
    ids: otherId ? [`${otherCountry ? `${otherCountry}: ` : ''}${otherId}`] : [],
    legalId: undefined,
    vatId: nip ? `${prefix ?? 'PL'}${nip}` : euPrefix && euNumber ? `${euPrefix}${euNumber}` : undefined,
    taxRegistration: undefined,
    legalInfo: undefined,
    endpoint: undefined,
    address: address
      ? {
          lines: [r.text(address, 'AdresL1'), r.text(address, 'AdresL2')].filter(
            (line): line is string => line !== undefined,
          ),
          city: undefined,
          postalCode: undefined,
          subdivision: undefined,
          country: r.text(address, 'KodKraju'),
        }
      : undefined,
    contactName: undefined,
    phone: contacts.map((contact) => r.text(contact, 'Telefon')).find(Boolean),
    email: contacts.map((contact) => r.text(contact, 'Email')).find(Boolean),
  };
}

const negate = (text: string) => (text.startsWith('-') ? text.slice(1) : `-${text}`);

function readLine(r: Reader, line: XNode): InLine {
  const code = r.text(line, 'P_12');
  const tax = code === undefined ? undefined : categoryOfCode(code);
  const before = r.text(line, 'StanPrzed') === '1';
  const grossPrice = r.text(line, 'P_9B');
  const net = r.text(line, 'P_11') ?? netOfGross(r.text(line, 'P_11A'), r.text(line, 'P_11Vat'), tax?.rate);
  const quantity = r.text(line, 'P_8B') ?? '1';
  return {
    id: r.text(line, 'NrWierszaFa') ?? '',
    note: code && !tax ? `P_12: ${code}` : undefined,
    name: r.text(line, 'P_7') ?? '',
    description: undefined,
    sellerItemId: r.text(line, 'Indeks'),
    buyerItemId: undefined,
    standardItemId: r.text(line, 'GTIN'),
    quantity: before ? negate(quantity) : quantity,
    unitCode: r.text(line, 'P_8A'),
    net: before ? negate(net ?? '0') : (net ?? '0'),
    price: r.text(line, 'P_9A') ?? grossPrice ?? '0',
    baseQuantity: undefined,
    grossPrice,
    priceDiscount: r.text(line, 'P_10'),
    category: tax?.category,
    rate: tax?.rate,
    allowances: [],
    periodStart: undefined,
    periodEnd: undefined,
    // A standard rate shows in the rate column; the other codes (0 KR, zw, np II…) are named.
    facts: [
      ...(code && tax?.category !== 'S' ? [{ label: 'P_12', value: code }] : []),
      ...(before ? [{ label: 'StanPrzed', value: '1' }] : []),
    ],
  };
}

/** A line priced gross (P_11A): its net is the gross less its stated VAT, else less the VAT the rate contains. */
function netOfGross(gross: string | undefined, vat: string | undefined, rate: string | undefined): string | undefined {
  const value = parseDecimal(gross);
  if (value === undefined) return undefined;
  const stated = parseDecimal(vat);
  if (stated !== undefined) return microsToText(value - stated);
  const percent = parseDecimal(rate) ?? 0n;
  return microsToText(roundTo(divide(multiply(value, HUNDRED), HUNDRED + percent), 2));
}

function readBreakdown(r: Reader, fa: XNode | undefined, lines: InLine[]): InBreakdown[] {
  const exemption = ['P_19A', 'P_19B', 'P_19C']
    .map((name) => r.text(fa, 'Adnotacje', 'Zwolnienie', name))
    .find(Boolean);
  const codes = new Set(lines.map((line) => line.rate));
  return SLOT_RATES.flatMap(([slot, category, rates]): InBreakdown[] => {
    const basis = r.text(fa, `P_13_${slot}`);
    if (basis === undefined) return [];
    const rate = category === 'S' ? (rates.find((candidate) => codes.has(candidate)) ?? rates[0]) : '0';
    return [
      {
        category,
        rate,
        basis,
        tax: r.text(fa, `P_14_${slot}`) ?? '0',
        exemptionReason: category === 'E' ? exemption : category === 'AE' ? 'odwrotne obciążenie (oo)' : undefined,
        exemptionCode: slot === '9' ? 'np II' : slot === '11' ? 'PMarzy' : undefined,
      },
    ];
  });
}

/**
 * The elements every FA(3) carries with their "no" or fixed value (an annotation that does not apply,
 * not a local-government unit, form variant 3): read, so that only what says something is listed
 * as an other value. A "yes" (1 where 2 is "no") stays listed.
 */
function markRoutine(r: Reader, root: XNode, fa: XNode | undefined): void {
  r.expect(root, '3', 'Naglowek', 'WariantFormularza');
  r.text(root, 'Naglowek', 'DataWytworzeniaFa');
  r.text(root, 'Naglowek', 'SystemInfo');
  for (const flag of ['JST', 'GV']) r.expect(root, '2', 'Podmiot2', flag);
  for (const flag of ['P_16', 'P_17', 'P_18', 'P_18A', 'P_23']) r.expect(fa, '2', 'Adnotacje', flag);
  r.expect(fa, '1', 'Adnotacje', 'Zwolnienie', 'P_19N');
  r.expect(fa, '1', 'Adnotacje', 'NoweSrodkiTransportu', 'P_22N');
  r.expect(fa, '1', 'Adnotacje', 'PMarzy', 'P_PMarzyN');
}
