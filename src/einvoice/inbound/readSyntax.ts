import { INBOUND_LIMITS } from './limits.js';
import type {
  InAddress,
  InAllowanceCharge,
  InAttachment,
  InboundInvoice,
  InBreakdown,
  InLine,
  InParty,
  InPaymentMeans,
} from './model.js';
import { Reader, schemed } from './reader.js';
import { tooManyLines } from './refusals.js';
import type { AllowanceTerms, LineTerms, Path, SyntaxTable, TaxTerms, Term } from './syntaxTable.js';
import type { XNode } from '../../xml/xmlTree.js';

type Reference = { bt: string; value: string | undefined };

/**
 * Any EN 16931 syntax binding into the inbound model by walking its table (syntaxTable.ts):
 * CII D16B (Factur-X / ZUGFeRD 2, XRechnung CII), ZUGFeRD 1.0, UBL 2.1 Invoice and CreditNote.
 * Every element the table names is marked read; the rest land in otherValues with their path.
 */
export function readSyntax(root: XNode, table: SyntaxTable): InboundInvoice {
  const r = new Reader(table.names);
  const read = new TermReader(r, table, root);
  const { header, line } = table;
  const lineNodes = r.every(root, line.each);
  if (lineNodes.length > INBOUND_LIMITS.lines) throw tooManyLines(lineNodes.length);

  const currency = r.textAt(root, header.currency) ?? '';
  const lines = lineNodes.map((node) => read.line(node));
  const references: Reference[] = table.references.map(([bt, path]) => ({ bt, value: r.textAt(root, path) }));
  for (const preceding of r.every(root, table.preceding.each)) {
    const number = r.textAt(preceding, table.preceding.number);
    const issued = read.date(preceding, table.preceding.date);
    references.push({ bt: 'BT-25', value: number && (issued ? `${number} (${issued})` : number) });
  }
  const attachments = read.documents(references);
  const { taxTotal, accounting, breakdownFrom } = table.taxTotals(r, root, root);
  const breakdown = read.breakdown(breakdownFrom);
  const dueDateCode = breakdown.find((group) => group.dueDateCode !== undefined)?.dueDateCode;
  if (dueDateCode !== undefined) references.push({ bt: 'BT-8', value: dueDateCode });
  const sums = r.at(root, table.totals.at);
  const total = (key: keyof typeof table.totals) => r.textAt(sums, table.totals[key]);
  const paymentTerms = r.every(root, table.paymentTerms.each).map((terms) => r.textAt(terms, table.paymentTerms.text));

  const invoice: InboundInvoice = {
    syntax: table.syntax,
    document: table.document,
    syntaxLabel: table.label,
    envelope: null,
    customization: r.textAt(root, header.customization) ?? '',
    profile: r.textAt(root, header.profile),
    typeCode: r.textAt(root, header.typeCode) ?? '',
    number: r.textAt(root, header.number) ?? '',
    issueDate: read.date(root, header.issueDate) ?? '',
    dueDate: header.dueDate(r, root, root),
    taxPointDate: header.taxPointDate
      ? read.date(root, header.taxPointDate)
      : breakdown.find((group) => group.taxPoint !== undefined)?.taxPoint,
    currency,
    taxCurrency: r.textAt(root, header.taxCurrency),
    notes: r
      .every(root, table.notes.each)
      .map((note) => table.notes.read(r, note, root))
      .filter((note) => note.text !== ''),
    references: references.filter(
      (reference): reference is { bt: string; value: string } =>
        reference.value !== undefined && reference.value !== '',
    ),
    seller: read.party(r.at(root, table.parties.seller)) ?? emptyParty(),
    buyer: read.party(r.at(root, table.parties.buyer)) ?? emptyParty(),
    payee: read.party(r.at(root, table.parties.payee)),
    taxRepresentative: read.party(r.at(root, table.parties.taxRepresentative)),
    delivery: read.delivery(),
    periodStart: read.date(root, header.periodStart),
    periodEnd: read.date(root, header.periodEnd),
    paymentMeans: r.every(root, table.paymentMeans.each).map((means) => read.paymentMeans(means)),
    paymentReference: read.term(root, header.paymentReference),
    paymentTerms: paymentTerms.filter((text) => text !== undefined).join('\n') || undefined,
    allowances: table.allowances.flatMap((terms) => read.allowances(root, terms)),
    breakdown: breakdown.map(({ taxPoint: _taxPoint, dueDateCode: _code, ...group }) => group),
    totals: {
      lineTotal: total('lineTotal'),
      allowanceTotal: total('allowanceTotal'),
      chargeTotal: total('chargeTotal'),
      taxBasis: total('taxBasis'),
      taxTotal,
      taxTotalAccounting: accounting,
      grandTotal: total('grandTotal'),
      prepaid: total('prepaid'),
      rounding: total('rounding'),
      duePayable: total('duePayable'),
    },
    lines,
    attachments,
    otherValues: [],
  };
  invoice.otherValues = r.leftovers(root, table.otherValueBt);
  return invoice;
}

/** The table's groups read below their nodes (a class so that the reader is not passed around). */
class TermReader {
  constructor(
    private readonly r: Reader,
    private readonly table: SyntaxTable,
    private readonly root: XNode,
  ) {}

  term<T>(node: XNode | undefined, term: Term<T>): T | string | undefined {
    return typeof term === 'function' ? term(this.r, node, this.root) : this.r.textAt(node, term);
  }

  date(node: XNode | undefined, path: Path): string | undefined {
    return this.table.date(this.r.textAt(node, path));
  }

  category(tax: XNode | undefined): string | undefined {
    return vatCategory(this.r, tax, this.table.tax);
  }

  party(node: XNode | undefined): InParty | undefined {
    if (!node) return undefined;
    const { r } = this;
    const terms = this.table.party;
    const text = (term: Term) => this.term(node, term) as string | undefined;
    const { each, kind, id, vat } = terms.registrations;
    const registrations = r.every(node, each).map((registration) => ({
      kind: this.term(registration, kind),
      id: r.textAt(registration, id),
    }));
    return {
      name: text(terms.name) ?? '',
      tradingName: text(terms.tradingName),
      ids: terms.ids(r, node, this.root),
      legalId: schemed(r, node, terms.legalId.path, terms.legalId.scheme),
      legalIssuer: terms.legalIssuer && text(terms.legalIssuer),
      vatId: registrations.find((registration) => registration.kind === vat)?.id,
      taxRegistration: registrations.find((registration) => registration.kind !== vat)?.id,
      legalInfo: text(terms.legalInfo),
      endpoint: schemed(r, node, terms.endpoint.path, terms.endpoint.scheme),
      address: this.address(r.at(node, terms.address)),
      contactName: text(terms.contactName),
      phone: text(terms.phone),
      email: text(terms.email),
    };
  }

  address(node: XNode | undefined): InAddress | undefined {
    const { r } = this;
    const terms = this.table.address;
    return (
      node && {
        lines: terms.lines.map((path) => r.textAt(node, path)).filter((line): line is string => line !== undefined),
        city: r.textAt(node, terms.city),
        postalCode: r.textAt(node, terms.postalCode),
        subdivision: r.textAt(node, terms.subdivision),
        country: r.textAt(node, terms.country),
      }
    );
  }

  delivery(): InboundInvoice['delivery'] {
    const { r } = this;
    const terms = this.table.delivery;
    const at = r.at(this.root, terms.at);
    const party = r.at(at, terms.party);
    const date = this.date(at, terms.date);
    if (!party && !date) return undefined;
    return {
      name: r.textAt(party, terms.name),
      locationId: terms.locationId(r, party, this.root),
      address: this.address(r.at(party, terms.address)),
      date,
    };
  }

  allowances(node: XNode | undefined, terms: AllowanceTerms): InAllowanceCharge[] {
    return this.r.every(node, terms.each).map((charge) => readAllowance(this.r, charge, terms, this.table.tax));
  }

  paymentMeans(means: XNode): InPaymentMeans {
    const { r } = this;
    const terms = this.table.paymentMeans;
    const text = (term: Term) => this.term(means, term) as string | undefined;
    return {
      code: text(terms.code),
      text: text(terms.text),
      account: text(terms.account),
      accountName: r.textAt(means, terms.accountName),
      bic: r.textAt(means, terms.bic),
      card:
        terms.card
          .map((path) => r.textAt(means, path))
          .filter(Boolean)
          .join(', ') || undefined,
      mandate: text(terms.mandate),
      debitedAccount: r.textAt(means, terms.debitedAccount),
    };
  }

  breakdown(from: XNode | undefined): (InBreakdown & { taxPoint?: string; dueDateCode?: string })[] {
    const { r } = this;
    const terms = this.table.breakdown;
    return r.every(from, terms.each).map((group) => {
      const tax = r.at(group, terms.tax);
      return {
        category: this.category(tax) ?? '',
        rate: r.textAt(tax, this.table.tax.rate),
        basis: r.textAt(group, terms.basis) ?? '0',
        tax: r.textAt(group, terms.amount) ?? '0',
        exemptionReason: r.textAt(tax, terms.exemptionReason),
        exemptionCode: r.textAt(tax, terms.exemptionCode),
        taxPoint: terms.taxPoint && this.date(group, terms.taxPoint),
        dueDateCode: terms.dueDateCode && r.textAt(group, terms.dueDateCode),
      };
    });
  }

  /** BG-24, pushing the documents that are references (BT-17, BT-18) onto `references`. */
  documents(references: Reference[]): InAttachment[] {
    const { r } = this;
    const terms = this.table.documents;
    const attachments: InAttachment[] = [];
    for (const document of r.every(this.root, terms.each)) {
      const reference = terms.asReference[r.textAt(document, terms.typeCode) ?? ''];
      const id = r.textAt(document, terms.id) ?? '';
      if (reference)
        references.push({ bt: reference.bt, value: reference.schemed ? schemed(r, document, terms.id) : id });
      else if (attachments.length < INBOUND_LIMITS.attachments) {
        const binary = r.at(document, terms.binary);
        r.consume(binary);
        attachments.push({
          id,
          description: r.textAt(document, terms.description),
          filename: binary?.attrs.filename,
          mimeCode: binary?.attrs.mimeCode,
          bytes: binary ? base64Bytes(binary.text) : undefined,
          uri: r.textAt(document, terms.uri),
        });
      } else r.consume(document);
    }
    return attachments;
  }

  line(node: XNode): InLine {
    const { r } = this;
    const terms = this.table.line;
    const quantity = r.at(node, terms.quantity);
    const tax = r.at(node, terms.tax);
    const gross = terms.gross(r, node, this.root);
    const line: InLine = {
      id: r.textAt(node, terms.id) ?? '',
      note: r.textAt(node, terms.note),
      name: r.textAt(node, terms.name) ?? '',
      description: r.textAt(node, terms.description),
      sellerItemId: r.textAt(node, terms.sellerItemId),
      buyerItemId: r.textAt(node, terms.buyerItemId),
      standardItemId: schemed(r, node, terms.standardItemId.path, terms.standardItemId.scheme),
      quantity: r.text(quantity) ?? '0',
      unitCode: r.attr(quantity, 'unitCode'),
      net: r.textAt(node, terms.net) ?? '0',
      price: r.textAt(node, terms.price),
      baseQuantity: r.textAt(node, terms.baseQuantity),
      grossPrice: gross.grossPrice,
      priceDiscount: gross.priceDiscount,
      category: this.category(tax),
      rate: r.textAt(tax, this.table.tax.rate),
      allowances: this.allowances(node, terms.allowances),
      periodStart: this.date(node, terms.periodStart),
      periodEnd: this.date(node, terms.periodEnd),
      facts: this.facts(node, terms),
    };
    if (terms.grossBaseQuantity) line.grossBaseQuantity = r.textAt(node, terms.grossBaseQuantity);
    return line;
  }

  /** BT-160/161 attributes, BT-158 classifications, the single facts, BT-128 objects; empty ones left out. */
  private facts(node: XNode, terms: LineTerms): InLine['facts'] {
    const { r } = this;
    const facts: InLine['facts'] = [];
    for (const attribute of r.every(node, terms.attributes.each))
      addFact(facts, r.textAt(attribute, terms.attributes.label) ?? '', r.textAt(attribute, terms.attributes.value));
    const { classifications, objects } = terms;
    for (const classification of r.every(node, classifications.each))
      addFact(facts, 'BT-158', schemed(r, classification, classifications.code.path, classifications.code.scheme));
    for (const [label, path] of terms.facts) addFact(facts, label, r.textAt(node, path));
    if (objects)
      for (const object of r.every(node, objects.each)) {
        r.expect(object, objects.expect[0], ...objects.expect[1]);
        addFact(facts, 'BT-128', schemed(r, object, objects.id.path, objects.id.scheme));
      }
    return facts;
  }
}

function addFact(facts: InLine['facts'], label: string, value: string | undefined): void {
  if (value !== undefined && value !== '') facts.push({ label, value });
}

/** BT-95/102/118/151: the category of a tax element whose scheme is VAT. */
function vatCategory(r: Reader, tax: XNode | undefined, terms: TaxTerms): string | undefined {
  r.expect(tax, 'VAT', ...terms.scheme);
  return r.textAt(tax, terms.category);
}

/** One allowance or charge (BG-20/21/27/28, or a CII price discount) below its node. */
export function readAllowance(r: Reader, charge: XNode, terms: AllowanceTerms, taxTerms: TaxTerms): InAllowanceCharge {
  const tax = r.at(charge, terms.tax);
  const amount = r.textAt(charge, terms.amount) ?? '0';
  const base = terms.base && r.textAt(charge, terms.base);
  return {
    charge: terms.charge === true ? true : r.textAt(charge, terms.charge) === 'true',
    amount: terms.amountSignOfBase && base !== undefined ? withSignOf(base, amount) : amount,
    base,
    percent: terms.percent && r.textAt(charge, terms.percent),
    reason: r.textAt(charge, terms.reason),
    reasonCode: terms.reasonCode && r.textAt(charge, terms.reasonCode),
    category: vatCategory(r, tax, taxTerms),
    rate: r.textAt(tax, taxTerms.rate),
  };
}

/** `amount` (decimal text) with the sign of `base`: 21.55 for -21.55 on a basis of 1077.60. */
function withSignOf(base: string, amount: string): string {
  const magnitude = amount.trim().replace(/^[-+]/, '');
  return base.trim().startsWith('-') && !/^0*\.?0*$/.test(magnitude) ? `-${magnitude}` : magnitude;
}

function emptyParty(): InParty {
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

/** The decoded size of base64 text, without decoding it. */
function base64Bytes(text: string): number {
  const clean = text.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}
