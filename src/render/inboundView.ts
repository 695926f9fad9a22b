import { DEFAULT_DESIGN } from '../invoice/designFields.js';
import Handlebars from 'handlebars';
import type {
  InAddress,
  InAllowanceCharge,
  InboundInvoice,
  InParty,
  TotalsComparison,
} from '../invoice/inboundInvoice.js';
import { CURRENCIES } from '../invoice/currencies.js';
import { UNIT_CODES_WITH_NAMES, type LabelCatalog, type LabelKey } from '../invoice/labelKeys.js';
import { countryName, formatDate, formatPercent, formatQuantity } from '../invoice/localeFormat.js';
import { directionOf, parseLocaleTag, type InvoiceLocale } from '../invoice/locales.js';
import { checkIban, formatIban } from '../invoice/paymentQr/iban.js';
import { EPC_LIMITS, epcPayload } from '../invoice/paymentQr/epc.js';
import type { LabelCatalogs } from './labelCatalogs.js';
import { paymentQrSvg } from './paymentQrSvg.js';
import type { PartyView } from './partyView.js';
import { textLanguage } from './textLanguage.js';
import { LINES_KEPT_WITH_TOTALS, type InvoiceView, type LineView, type TextView } from './viewModel.js';

/**
 * The page of an inbound e-invoice (POST /v1/e-invoice/render.pdf): the same template as our own
 * invoices, filled with the document's values as it states them (its line amounts and its own
 * totals, never recomputed ones), plus the inbound sections (templates/partials/inbound-*.hbs):
 * the visualisation notice, where its totals disagree with its lines, references, line details,
 * allowances and charges, attachments (listed, never opened) and every other value with its BT.
 */
export interface InboundRender {
  invoice: InboundInvoice;
  totals: TotalsComparison;
  /** The requested BCP 47 tag, or undefined for English. */
  locale: string | undefined;
  /** A note on the document (an unknown specification identifier). */
  notes: string[];
}

export interface InboundView {
  /** "Visualisation of an electronic invoice…" and the syntax/specification line. */
  banner: string;
  specification: string;
  notices: TextView[];
  differences: { label: string; document: string; recomputed: string }[];
  references: { label: string; value: string; lang: string }[];
  lineDetails: { line: string; facts: string[]; lang: string }[];
  allowances: { label: string; amount: string; lang: string }[];
  paymentMeans: { label: string; values: string[] }[];
  parties: { heading: string; party: PartyView }[];
  attachments: { id: string; text: string; lang: string }[];
  otherValues: { bt: string; path: string; value: string; lang: string }[];
}

const UNIT_NAMES = new Set<string>(UNIT_CODES_WITH_NAMES);

/**
 * EN 16931's own (English) names of the references the label catalogs have no word for; each is
 * printed with its BT number, which is the same in every language.
 */
const REFERENCE_TERMS: Record<string, string> = {
  'BT-8': 'Value added tax point date code',
  'BT-11': 'Project reference',
  'BT-12': 'Contract reference',
  'BT-14': 'Sales order reference',
  'BT-15': 'Receiving advice reference',
  'BT-16': 'Despatch advice reference',
  'BT-17': 'Tender or lot reference',
  'BT-18': 'Invoiced object identifier',
  'BT-19': 'Buyer accounting reference',
  'BT-90': 'Bank assigned creditor identifier',
};

export function inboundLocale(tag: string | undefined): InvoiceLocale {
  const parsed = tag === undefined ? undefined : parseLocaleTag(tag);
  return parsed
    ? { ...parsed, direction: directionOf(parsed.language), explicit: true }
    : { tag: 'en-GB', language: 'en', direction: 'ltr', explicit: false };
}

export function buildInboundView(render: InboundRender, catalogs: LabelCatalogs): InvoiceView {
  const { invoice: doc, totals } = render;
  const locale = inboundLocale(render.locale);
  const labels: LabelCatalog = catalogs[locale.language];
  const userLang = (text: string) => textLanguage(text, locale.tag);
  const amount = (text: string | undefined) => (text === undefined ? '' : formatAmount(text, locale.tag));
  const percent = (rate: string | undefined) => (rate === undefined ? '' : formatPercent(rate, locale));
  const date = (iso: string | undefined) =>
    // A date no calendar has (a UBL 2013-91-02) is shown as sent rather than failing the render.
    iso !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(iso) && !Number.isNaN(Date.parse(iso))
      ? formatDate(iso, locale)
      : (iso ?? '');
  const creditNote = doc.document === 'CreditNote' || ['381', '396', '81', '83', '532'].includes(doc.typeCode);
  const documentTitle = creditNote ? labels.credit_note : labels.invoice;
  const rates = new Set(doc.lines.map((line) => `${line.category}|${line.rate}`));
  const rateColumn = rates.size > 1;

  const lines = doc.lines.map((line, index): LineView => {
    const quantity = formatQuantity(line.quantity, locale);
    const unit = line.unitCode;
    const base =
      line.baseQuantity !== undefined && line.baseQuantity !== '1'
        ? ` / ${formatQuantity(line.baseQuantity, locale)}`
        : '';
    return {
      number: index + 1,
      lang: userLang(line.name),
      description: line.name,
      itemCode: line.sellerItemId ?? null,
      quantity:
        unit === undefined
          ? quantity
          : `${quantity}\u00a0${UNIT_NAMES.has(unit) ? labels[`unit_${unit}` as LabelKey] : unit}`,
      unitPrice: `${amount(line.price)}${base}`,
      rate: line.category === 'O' ? '' : percent(line.rate),
      amount: amount(line.net),
    };
  });
  const split = Math.max(0, lines.length - LINES_KEPT_WITH_TOTALS);
  const t = doc.totals;
  const prepaid = t.prepaid !== undefined && Number(t.prepaid) !== 0;
  const taxes = [
    ...doc.breakdown.map((group) => ({
      label: `${labels.tax} (${labels[`category_${group.category}` as LabelKey] ?? group.category}${group.category === 'O' ? '' : ` ${percent(group.rate)}`})`,
      amount: amount(group.tax),
    })),
    ...(t.taxTotalAccounting !== undefined ? [{ label: `${labels.tax} (BT-111)`, amount: t.taxTotalAccounting }] : []),
    ...(t.rounding !== undefined && Number(t.rounding) !== 0 && !(t.prepaid !== undefined && Number(t.prepaid) !== 0)
      ? [{ label: `${labels.total} (BT-112)`, amount: amount(t.grandTotal) }]
      : []),
    ...(t.rounding !== undefined && Number(t.rounding) !== 0 ? [{ label: 'BT-114', amount: amount(t.rounding) }] : []),
  ];
  const allowanceTotal =
    t.allowanceTotal !== undefined && Number(t.allowanceTotal) !== 0 ? amount(t.allowanceTotal) : null;
  const chargeTotal = t.chargeTotal !== undefined && Number(t.chargeTotal) !== 0 ? amount(t.chargeTotal) : null;
  // With charges, the rows go allowances, charges, taxable amount (the totals partial's own
  // discount rows have no place for a charge between them).
  if (chargeTotal !== null) {
    taxes.unshift(
      ...(allowanceTotal !== null ? [{ label: `${labels.discount} (BT-107)`, amount: `−${allowanceTotal}` }] : []),
      { label: `${labels.inbound_charges} (BT-108)`, amount: chargeTotal },
      { label: `${labels.taxable_amount} (BT-109)`, amount: amount(t.taxBasis) },
    );
  }

  const means = doc.paymentMeans.find((entry) => entry.account !== undefined) ?? doc.paymentMeans[0];
  const ibanOk = means?.account !== undefined && checkIban(means.account).ok;
  const qr =
    ibanOk && doc.currency === 'EUR' && means?.account ? epcQr(doc, means.account, means.bic, means.accountName) : null;

  const inbound: InboundView = {
    banner: labels.inbound_visualisation,
    specification: [
      doc.syntaxLabel,
      doc.envelope === 'sbdh' ? 'SBDH' : null,
      doc.customization || null,
      doc.profile ?? null,
    ]
      .filter(Boolean)
      .join(' · '),
    notices: [...render.notes.map((note) => ({ lang: 'en', text: `${labels.inbound_unknown_specification} ${note}` }))],
    differences: totals.differences.map((difference) => ({
      label: `${difference.bt} ${difference.field}`,
      document: amount(difference.document),
      recomputed: amount(difference.recomputed),
    })),
    references: [
      ...doc.references.map((reference) => ({
        label:
          reference.bt === 'BT-10'
            ? `${labels.buyer_reference} (BT-10)`
            : reference.bt === 'BT-13'
              ? `${labels.purchase_order} (BT-13)`
              : reference.bt === 'BT-25'
                ? `${labels.preceding_invoice} (BT-25)`
                : `${REFERENCE_TERMS[reference.bt] ?? ''} (${reference.bt})`.trim(),
        value: reference.value,
        lang: userLang(reference.value),
      })),
      ...(doc.taxPointDate
        ? [{ label: 'Value added tax point date (BT-7)', value: date(doc.taxPointDate), lang: locale.language }]
        : []),
      ...(doc.periodStart || doc.periodEnd
        ? [
            {
              label: `${labels.inbound_period} (BG-14)`,
              value: `${date(doc.periodStart)} – ${date(doc.periodEnd)}`,
              lang: locale.language,
            },
          ]
        : []),
      ...(doc.delivery?.date
        ? [{ label: `${labels.inbound_delivery_date} (BT-72)`, value: date(doc.delivery.date), lang: locale.language }]
        : []),
      ...(doc.taxCurrency ? [{ label: 'VAT accounting currency (BT-6)', value: doc.taxCurrency, lang: 'en' }] : []),
      { label: `${labels.inbound_type_code} (BT-3)`, value: doc.typeCode, lang: 'en' },
    ],
    lineDetails: doc.lines
      .map((line, index) => {
        const facts = [
          line.description && line.description !== line.name ? line.description : undefined,
          line.note ? `${labels.notes}: ${line.note}` : undefined,
          line.buyerItemId ? `BT-156: ${line.buyerItemId}` : undefined,
          line.standardItemId ? `BT-157: ${line.standardItemId}` : undefined,
          line.grossPrice ? `BT-148: ${amount(line.grossPrice)}` : undefined,
          line.priceDiscount ? `BT-147: −${amount(line.priceDiscount)}` : undefined,
          line.periodStart || line.periodEnd ? `BG-26: ${date(line.periodStart)} – ${date(line.periodEnd)}` : undefined,
          ...line.allowances.map((item) => allowanceText(item, labels, amount, percent)),
          ...line.facts.map((fact) => `${fact.label}: ${fact.value}`),
          // The rate column shows the rate; the category only where the rate does not imply it.
          line.category &&
          !(line.category === 'S' && Number(line.rate) > 0) &&
          !(line.category === 'Z' && Number(line.rate ?? 0) === 0)
            ? `${labels.vat_category}: ${line.category}`
            : undefined,
        ].filter((fact): fact is string => fact !== undefined);
        return {
          line: `${index + 1}${line.id && line.id !== String(index + 1) ? ` (${line.id})` : ''}`,
          facts,
          lang: userLang(facts.join(' ')),
        };
      })
      .filter((detail) => detail.facts.length > 0),
    allowances: doc.allowances.map((item) => ({
      label: allowanceText(item, labels, amount, percent),
      amount: `${item.charge ? '' : '−'}${amount(item.amount)}`,
      lang: userLang(item.reason ?? ''),
    })),
    paymentMeans: doc.paymentMeans.map((entry) => ({
      label: `${labels.payment_details} (BG-16)${entry.code ? ` · ${entry.code}` : ''}`,
      values: [
        entry.text,
        entry.account
          ? `${labels.iban}/BT-84: ${checkIban(entry.account).ok ? formatIban(entry.account) : entry.account}`
          : undefined,
        entry.accountName ? `${labels.account_name}: ${entry.accountName}` : undefined,
        entry.bic ? `${labels.bic}: ${entry.bic}` : undefined,
        entry.card ? `BG-18: ${entry.card}` : undefined,
        entry.mandate ? `BT-89: ${entry.mandate}` : undefined,
        entry.debitedAccount ? `BT-91: ${entry.debitedAccount}` : undefined,
      ].filter((value): value is string => value !== undefined),
    })),
    parties: [
      ...(doc.payee ? [{ heading: `${labels.inbound_payee} (BG-10)`, party: inboundParty(doc.payee, locale) }] : []),
      ...(doc.taxRepresentative
        ? [
            {
              heading: `${labels.inbound_tax_representative} (BG-11)`,
              party: inboundParty(doc.taxRepresentative, locale),
            },
          ]
        : []),
    ],
    attachments: doc.attachments.map((attachment) => {
      const text = [
        attachment.description,
        attachment.filename,
        attachment.mimeCode,
        attachment.bytes !== undefined ? `${attachment.bytes} B` : undefined,
        attachment.uri,
      ]
        .filter(Boolean)
        .join(' · ');
      return { id: attachment.id, text, lang: userLang(text) };
    }),
    otherValues: doc.otherValues.map((value) => ({
      bt: value.bt ?? '',
      path: value.path,
      value: value.value,
      lang: userLang(value.value),
    })),
  };

  const paymentReference = doc.paymentReference ?? null;
  const totalsView = {
    // MINIMUM and BASIC WL may state no line total (BT-106): the taxable amount stands in.
    subtotal: amount(t.lineTotal ?? t.taxBasis),
    discount: chargeTotal === null ? allowanceTotal : null,
    taxable: chargeTotal === null && allowanceTotal !== null ? amount(t.taxBasis) : null,
    taxes,
    totalLabel: creditNote ? labels.total_credit : labels.total_due,
    total: prepaid ? amount(t.grandTotal) : amount(t.duePayable ?? t.grandTotal),
    amountPaid: prepaid ? amount(t.prepaid) : null,
    balanceDue: prepaid ? amount(t.duePayable) : null,
  };

  return {
    // An inbound e-invoice prints in the default design, with no stamp or theme of its own.
    design: DEFAULT_DESIGN,
    stamp: null,
    pageClass: `design-${DEFAULT_DESIGN}`,
    lineNumbers: true,
    style: null,
    title: `${documentTitle} ${doc.number}`,
    lang: locale.language,
    dir: locale.direction === 'rtl' ? 'rtl' : null,
    labels,
    documentTitle,
    invoiceNumber: doc.number,
    issueDate: date(doc.issueDate),
    dueDate: doc.dueDate === undefined ? null : date(doc.dueDate),
    currency: doc.currency,
    seller: inboundParty(doc.seller, locale),
    buyer: inboundParty(doc.buyer, locale),
    shipTo:
      doc.delivery && (doc.delivery.name || doc.delivery.address || doc.delivery.locationId)
        ? inboundParty(
            {
              ...emptyish(),
              name: doc.delivery.name ?? '',
              address: doc.delivery.address,
              ids: doc.delivery.locationId ? [doc.delivery.locationId] : [],
            },
            locale,
          )
        : null,
    details: [],
    logo: null,
    accent: null,
    rateColumn,
    totalsPad: rateColumn ? 3 : 2,
    lines: lines.slice(0, split),
    tailLines: lines.slice(split),
    totals: totalsView,
    totalsRows: 1 + (totalsView.discount ? 2 : 0) + totalsView.taxes.length + (totalsView.balanceDue ? 3 : 1),
    vatBreakdown:
      doc.breakdown.length > 1
        ? doc.breakdown.map((group) => ({
            category: labels[`category_${group.category}` as LabelKey] ?? group.category,
            rate: percent(group.rate),
            taxable: amount(group.basis),
            tax: amount(group.tax),
          }))
        : null,
    exemptions: doc.breakdown
      .filter((group) => group.exemptionReason !== undefined || group.exemptionCode !== undefined)
      .map((group) => {
        const text = [group.category, group.exemptionCode, group.exemptionReason].filter(Boolean).join(' · ');
        return { lang: userLang(text), text };
      }),
    payment:
      means && (means.account || paymentReference)
        ? {
            accountName: means.accountName ?? null,
            iban: means.account ? (ibanOk ? formatIban(means.account) : means.account) : null,
            bic: means.bic ?? null,
            reference: paymentReference,
            qr,
          }
        : null,
    swissQrBill: null,
    notes:
      doc.notes.length > 0
        ? textOf(
            doc.notes.map((note) => (note.subject ? `[${note.subject}] ${note.text}` : note.text)).join('\n\n'),
            userLang,
          )
        : null,
    paymentInstructions: doc.paymentTerms ? textOf(doc.paymentTerms, userLang) : null,
    inbound,
  };
}

function allowanceText(
  item: InAllowanceCharge,
  labels: LabelCatalog,
  amount: (text: string | undefined) => string,
  percent: (rate: string | undefined) => string,
): string {
  const kind = item.charge ? `${labels.inbound_charge} (BG-21)` : `${labels.inbound_allowance} (BG-20)`;
  const detail = [
    item.reason,
    item.reasonCode ? `[${item.reasonCode}]` : undefined,
    item.percent !== undefined && item.base !== undefined
      ? `${item.percent} % × ${amount(item.base)}`
      : item.base !== undefined
        ? `BT-93: ${amount(item.base)}`
        : undefined,
    item.category
      ? `${item.category}${item.rate !== undefined && item.category !== 'O' ? ` ${percent(item.rate)}` : ''}`
      : undefined,
  ].filter(Boolean);
  return `${kind}: ${item.charge ? '' : '−'}${amount(item.amount)}${detail.length ? ` — ${detail.join(' · ')}` : ''}`;
}

function emptyish(): InParty {
  return {
    name: '',
    tradingName: undefined,
    ids: [],
    legalId: undefined,
    vatId: undefined,
    taxRegistration: undefined,
    legalInfo: undefined,
    endpoint: undefined,
    address: undefined,
    contactName: undefined,
    phone: undefined,
    email: undefined,
  };
}

/** A party of the document as the party partial prints it; identifiers join the address block. */
function inboundParty(party: InParty, locale: InvoiceLocale): PartyView {
  const addressLines = party.address ? addressText(party.address, locale) : null;
  const extra = [
    party.tradingName ? `${party.tradingName}` : undefined,
    ...party.ids.map((id) => `ID ${id}`),
    party.legalId ? `BT-30: ${party.legalId}` : undefined,
    party.legalInfo,
    party.endpoint ? `@ ${party.endpoint}` : undefined,
  ].filter((line): line is string => line !== undefined);
  const address = [addressLines, ...extra].filter(Boolean).join('\n') || null;
  const all = [party.name, address, party.contactName, party.phone].filter(Boolean).join(' ');
  return {
    lang: textLanguage(all, locale.tag),
    name: party.name,
    address,
    contactName: party.contactName ?? null,
    email: party.email ?? null,
    phone: party.phone ?? null,
    vatId: party.vatId ?? null,
    taxId: party.taxRegistration ?? null,
    emailParts: party.email?.split(/(?<=@)|(?=\.)/) ?? null,
  };
}

function addressText(address: InAddress, locale: InvoiceLocale): string | null {
  const cityLine = [address.postalCode, address.city].filter(Boolean).join(' ');
  const country =
    address.country && /^[A-Z]{2}$/.test(address.country) ? safeCountry(address.country, locale) : address.country;
  return [...address.lines, cityLine || undefined, address.subdivision, country].filter(Boolean).join('\n') || null;
}

function safeCountry(code: string, locale: InvoiceLocale): string {
  try {
    return countryName(code, locale);
  } catch {
    return code;
  }
}

function textOf(text: string, userLang: (text: string) => string): TextView {
  return { lang: userLang(text), text };
}

/**
 * An amount as the document states it, grouped in the reader's locale: as many decimals as the
 * document wrote (at least two), never rounded, never converted through a currency's minor units.
 */
export function formatAmount(text: string, tag: string): string {
  const match = /^\s*(-?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return text;
  const decimals = Math.max(2, (match[3] ?? '').length);
  const whole = BigInt(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(decimals, '0');
  const { separator, grouped, digit } = formattersOf(tag);
  // The fraction's digits in the locale's numbering system too (Arabic-Indic digits in ar).
  const localFraction = [...fraction].map((char) => digit[Number(char)]).join('');
  return `${match[1] === '-' && (whole !== 0n || /[1-9]/.test(fraction)) ? '−' : ''}${grouped.format(whole)}${separator}${localFraction}`;
}

/** Intl formatters are costly to build (a 200-line invoice formats 600 amounts): one set per tag. */
const FORMATTERS = new Map<string, { separator: string; grouped: Intl.NumberFormat; digit: string[] }>();

function formattersOf(tag: string) {
  let formatters = FORMATTERS.get(tag);
  if (!formatters) {
    const sample = new Intl.NumberFormat(tag, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).formatToParts(
      1.5,
    );
    const single = new Intl.NumberFormat(tag, { useGrouping: false });
    formatters = {
      separator: sample.find((part) => part.type === 'decimal')?.value ?? '.',
      grouped: new Intl.NumberFormat(tag, { useGrouping: true, maximumFractionDigits: 0 }),
      digit: Array.from({ length: 10 }, (_, value) => single.format(value)),
    };
    FORMATTERS.set(tag, formatters);
  }
  return formatters;
}

/** The SEPA credit transfer QR (EPC 069-12) for a EUR invoice with an IBAN: the amount due. */
function epcQr(
  doc: InboundInvoice,
  iban: string,
  bic: string | undefined,
  accountName: string | undefined,
): NonNullable<InvoiceView['payment']>['qr'] {
  const due = /^\d+(\.\d{1,2})?$/.exec((doc.totals.duePayable ?? doc.totals.grandTotal ?? '').trim());
  if (!due || Number(due[0]) <= 0 || Number(due[0]) > 999_999_999.99) return null;
  try {
    const payload = epcPayload({
      name: (accountName ?? doc.seller.name).slice(0, 70),
      iban: iban.replace(/\s+/g, ''),
      bic,
      amount: Number(due[0]).toFixed(CURRENCIES.EUR.digits),
      text: (doc.paymentReference ?? doc.number).slice(0, 140),
    });
    if (Buffer.byteLength(payload) > EPC_LIMITS.payloadBytes) return null;
    return {
      svg: new Handlebars.SafeString(paymentQrSvg(payload, { size: '30mm' }).svg),
      scheme: 'SEPA (EPC QR)',
      lines: [],
    };
  } catch {
    return null;
  }
}
