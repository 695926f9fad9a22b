import * as v from 'valibot';
import { isCountryCode } from '../../invoice/countries.js';
import { E_INVOICE_INVOICE_FIELDS, E_INVOICE_PARTY_FIELDS } from '../../invoice/eInvoiceFields.js';
import { checkBic } from '../../invoice/paymentQr/bic.js';
import { checkIban } from '../../invoice/paymentQr/iban.js';
import type { InvoiceInput } from '../../invoice/schema.js';
import { minorDigitsOf } from '../../invoice/currencies.js';
import { LIMITS } from '../../invoice/limits.js';
import { PartySchema } from '../../invoice/partySchema.js';
import { VAT_CATEGORIES, type VatCategory } from '../../invoice/vatCategories.js';
import { divide, microsToText, multiply, parseDecimal, roundTo, toNumber } from './decimalText.js';
import type { InAddress, InboundInvoice, InLine, InParty } from './model.js';
import { takeIntoLines } from './takeIntoLines.js';

/**
 * The inbound invoice as this service's own JSON invoice (the body of /v1/invoice.pdf and
 * /v1/e-invoice/*), so that it can be re-issued. The JSON model is smaller than EN 16931, so some
 * values are folded, each in a way that keeps the amounts: a line whose quantity × price does not
 * give its net amount (price base quantity, line allowances or charges) becomes quantity 1 at its
 * net amount, with the original quantity and price in its description; document-level charges
 * become lines of their own; allowances become the discount, or, on one VAT rate of several, are
 * taken into a line of that rate, as is a line with a negative net amount (takeIntoLines.ts); a
 * document without lines (MINIMUM, BASIC WL) gets one line per VAT group at its taxable amount; a
 * value a JSON field refuses (an e-mail address "Email address", an identifier that fails its
 * scheme's check) is left out and stays shown from the document. `folded` says what was folded.
 */
export interface InvoiceJson {
  invoice: InvoiceInput;
  folded: string[];
}

const VAT_IDENTIFIER = /^[A-Z]{2}[0-9A-Za-z+*.-]{2,28}$/;
const isVatCategory = (code: string | undefined): code is VatCategory =>
  (VAT_CATEGORIES as readonly string[]).includes(code ?? '');
const number = (text: string | undefined) => toNumber(parseDecimal(text) ?? 0n);
const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined && entry !== '')) as T;

export function toInvoiceJson(source: InboundInvoice): InvoiceJson {
  const digits = minorDigitsOf(source.currency);
  const taken = source.lines.length > 0 ? takeIntoLines(source, digits) : undefined;
  const folded: string[] = [...(taken?.folded ?? [])];
  const lines = taken
    ? source.lines
        .filter((line) => !taken.taken.has(line))
        .map((line) => lineItem(line, folded, taken.less.get(line) ?? 0n, digits))
    : breakdownLines(source, folded);
  const charges = source.allowances.filter((item) => item.charge);
  for (const charge of charges) {
    lines.push(
      defined({
        description: charge.reason ?? `Charge${charge.reasonCode ? ` ${charge.reasonCode}` : ''}`,
        quantity: 1,
        unit_price: number(charge.amount),
        ...taxOf(charge.category, charge.rate),
      }) as NonNullable<InvoiceInput['line_items']>[number],
    );
  }
  if (charges.length > 0) folded.push('document-level charges (BG-21) became lines');
  const reverseCharge = [...source.lines, ...charges, ...source.breakdown].find(
    (item) => item.category === 'AE' && number(item.rate) !== 0,
  );
  if (reverseCharge)
    folded.push(
      `reverse charge (AE) at ${reverseCharge.rate} % is stated at 0 %, as EN 16931 has it (BR-AE-05); its tax stays 0`,
    );
  const discount = (taken?.discount ?? source.allowances.filter((item) => !item.charge)).reduce(
    (total, item) => total + (parseDecimal(item.amount) ?? 0n),
    0n,
  );
  const preceding = source.references.find((reference) => reference.bt === 'BT-25')?.value;
  // Only a valid IBAN and BIC go to `payment` (which checks them); any other account is printed in the payment instructions.
  const iban = source.paymentMeans.find((means) => means.account !== undefined && checkIban(means.account).ok);
  const otherAccounts = source.paymentMeans
    .filter((means) => means.account !== undefined && means !== iban)
    .map((means) => `${means.account}${means.bic ? ` (${means.bic})` : ''}`);
  if (otherAccounts.length > 0) folded.push('accounts that are not a valid IBAN went to payment_instructions');
  const instructions =
    [source.paymentTerms, ...otherAccounts].filter((text) => text !== undefined).join('\n') || undefined;
  const exemption = source.breakdown.find((group) => group.exemptionReason !== undefined)?.exemptionReason;
  const creditNote = source.document === 'CreditNote' || source.typeCode === '381';
  const invoice: InvoiceInput = defined({
    seller: party(source.seller, 'seller', folded),
    buyer: party(source.buyer, 'buyer', folded),
    invoice_number: source.number,
    issue_date: source.issueDate,
    due_date: source.dueDate,
    currency: source.currency as InvoiceInput['currency'],
    line_items: lines,
    discount: discount > 0n ? toNumber(discount) : undefined,
    ...notesOf(source.notes),
    business_process: accepted(E_INVOICE_INVOICE_FIELDS.business_process, source.profile),
    payment_instructions: instructions,
    document_type: creditNote ? 'credit_note' : undefined,
    preceding_invoice: preceding
      ? { number: preceding.replace(/ \(\d{4}-\d{2}-\d{2}\)$/, ''), ...issueDateOf(preceding) }
      : undefined,
    tax_exemption_reason: exemption,
    amount_paid:
      source.totals.prepaid !== undefined && number(source.totals.prepaid) > 0
        ? number(source.totals.prepaid)
        : undefined,
    rounding_amount: roundingOf(source, folded),
    purchase_order: source.references.find((reference) => reference.bt === 'BT-13')?.value,
    buyer_reference: source.references.find((reference) => reference.bt === 'BT-10')?.value,
    ship_to: source.delivery?.address
      ? defined({ name: source.delivery.name ?? source.buyer.name, ...address(source.delivery.address) })
      : undefined,
    payment: iban?.account
      ? defined({
          iban: iban.account.replace(/\s+/g, ''),
          bic: iban.bic && checkBic(iban.bic).ok ? iban.bic : undefined,
          account_name: iban.accountName,
          reference: source.paymentReference,
        })
      : undefined,
  });
  return { invoice, folded };
}

/** A line; `less` is what takeIntoLines took off its net amount (another line's or an allowance's). */
function lineItem(
  line: InLine,
  folded: string[],
  less: bigint,
  digits: number,
): NonNullable<InvoiceInput['line_items']>[number] {
  const quantity = parseDecimal(line.quantity) ?? 0n;
  const price = parseDecimal(line.price) ?? 0n;
  const net = parseDecimal(line.net) ?? 0n;
  const base = parseDecimal(line.baseQuantity);
  const unitPrice = base === undefined || base === 0n ? price : divide(price, base);
  const exact =
    less === 0n && quantity > 0n && roundTo(multiply(quantity, unitPrice), 2) === net && line.allowances.length === 0;
  const description = [line.name, line.description === line.name ? undefined : line.description]
    .filter((part) => part !== undefined && part !== '')
    .join(' — ');
  if (!exact)
    folded.push(
      `line ${line.id}: quantity 1 at its net amount (BT-131)${less === 0n ? '' : ' less what was taken into it'}, as quantity × price does not give it`,
    );
  const taken = less === 0n ? '' : `, less ${microsToText(less, digits)}`;
  return defined({
    description: exact
      ? description
      : `${description} (${line.quantity}${line.unitCode ? ` ${line.unitCode}` : ''}${line.price === undefined ? '' : ` × ${line.price}`}${taken})`,
    quantity: exact ? toNumber(quantity) : 1,
    unit_price: exact ? toNumber(unitPrice) : toNumber(net - less),
    unit: exact && line.unitCode && /^[A-Z0-9]{2,3}$/.test(line.unitCode) ? line.unitCode : undefined,
    item_code: line.sellerItemId,
    ...taxOf(line.category, line.rate),
  }) as NonNullable<InvoiceInput['line_items']>[number];
}

function breakdownLines(source: InboundInvoice, folded: string[]): NonNullable<InvoiceInput['line_items']> {
  folded.push('the document has no lines: one line per VAT group at its taxable amount (BT-116)');
  return source.breakdown.map(
    (group) =>
      defined({
        description: `${group.category}${group.rate !== undefined ? ` ${group.rate} %` : ''} (BT-116)`,
        quantity: 1,
        // The allowances and charges are in the group's basis already; the lines carry them.
        unit_price:
          number(group.basis) +
          toNumber(
            source.allowances
              .filter((item) => item.category === group.category && item.rate === group.rate)
              .reduce((total, item) => total + (item.charge ? -1n : 1n) * (parseDecimal(item.amount) ?? 0n), 0n),
          ),
        ...taxOf(group.category, group.rate),
      }) as NonNullable<InvoiceInput['line_items']>[number],
  );
}

function taxOf(
  category: string | undefined,
  rate: string | undefined,
): { tax_category?: VatCategory; tax_rate: number } {
  // Reverse charge has no tax on the invoice, whatever rate the document names (the UAE names 5 %).
  return {
    ...(isVatCategory(category) ? { tax_category: category } : {}),
    tax_rate: category === 'AE' ? 0 : number(rate),
  };
}

function party(source: InParty, role: 'seller' | 'buyer', folded: string[]): NonNullable<InvoiceInput['seller']> {
  const vat = source.vatId?.replace(/\s+/g, '');
  const kept = <T>(field: string, value: T | undefined, given: string | undefined): T | undefined => {
    if (value === undefined && given !== undefined)
      folded.push(`${role}.${field}: ${JSON.stringify(given)} is not one the JSON field accepts; left out`);
    return value;
  };
  return defined({
    name: source.name,
    ...(source.address ? address(source.address) : {}),
    email: kept('email', accepted(PartySchema.entries.email, source.email), source.email),
    phone: source.phone,
    vat_id: vat && VAT_IDENTIFIER.test(vat) ? vat : undefined,
    tax_id: source.taxRegistration ?? (vat && !VAT_IDENTIFIER.test(vat) ? vat : undefined),
    contact_name: source.contactName,
    electronic_address: kept(
      'electronic_address',
      identifier(E_INVOICE_PARTY_FIELDS.electronic_address, source.endpoint),
      source.endpoint,
    ),
    legal_registration: kept(
      'legal_registration',
      identifier(E_INVOICE_PARTY_FIELDS.legal_registration, source.legalId),
      source.legalId,
    ),
  }) as NonNullable<InvoiceInput['seller']>;
}

/**
 * A "scheme: id" identifier (BT-34/49 electronic address, BT-30/47 legal registration) as the
 * JSON field holds it, when the field accepts it (a known scheme, the scheme's own format);
 * otherwise undefined, and the value stays shown in the PDF from the source document.
 */
function identifier<TSchema extends v.GenericSchema>(
  schema: TSchema,
  text: string | undefined,
): v.InferOutput<TSchema> | undefined {
  if (text === undefined) return undefined;
  const split = /^([^:\s]+): (.+)$/.exec(text);
  return accepted(schema, split ? { scheme: split[1], id: split[2] } : { id: text });
}

/** A value as the JSON field takes it, or undefined when the field would refuse it (the PDF still shows it). */
function accepted<TSchema extends v.GenericSchema>(
  schema: TSchema,
  value: unknown,
): v.InferOutput<TSchema> | undefined {
  if (value === undefined) return undefined;
  const parsed = v.safeParse(schema, value);
  return parsed.success ? parsed.output : undefined;
}

const LEGAL_NOTE_FIELDS = {
  PMT: 'recovery_fee',
  PMD: 'late_payment_penalties',
  AAB: 'early_payment_discount',
} as const;

/**
 * France's three legal notes (BR-FR-05: notes with subject codes PMT, PMD, AAB) as `legal_notes`,
 * when the document has all three (given fewer, the field would add the statutory wording of the
 * missing ones: they stay plain notes then); the other notes joined as `notes`.
 */
function notesOf(notes: InboundInvoice['notes']): Pick<InvoiceInput, 'notes' | 'legal_notes'> {
  const legal = notes.filter((note) => note.subject !== undefined && note.subject in LEGAL_NOTE_FIELDS);
  const complete = new Set(legal.map((note) => note.subject)).size === 3 && legal.length === 3;
  const legalNotes = complete
    ? accepted(
        E_INVOICE_INVOICE_FIELDS.legal_notes,
        Object.fromEntries(
          legal.map((note) => [LEGAL_NOTE_FIELDS[note.subject as keyof typeof LEGAL_NOTE_FIELDS], note.text]),
        ),
      )
    : undefined;
  const plain = legalNotes ? notes.filter((note) => !legal.includes(note)) : notes;
  return {
    notes: plain.map((note) => note.text).join('\n\n') || undefined,
    legal_notes: legalNotes,
  };
}

function address(source: InAddress) {
  return {
    street: source.lines.join(', ') || undefined,
    city: source.city,
    postal_code: source.postalCode,
    country: source.country && isCountryCode(source.country) ? source.country : undefined,
  };
}

/** BT-114, when the JSON field takes it (a rounding of at most 1 either way). */
function roundingOf(source: InboundInvoice, folded: string[]): number | undefined {
  const rounding = parseDecimal(source.totals.rounding);
  if (rounding === undefined || rounding === 0n) return undefined;
  const value = toNumber(rounding);
  if (Math.abs(value) <= LIMITS.roundingAmount) return value;
  folded.push(`the rounding amount (BT-114) ${source.totals.rounding} is more than the JSON field takes; left out`);
  return undefined;
}

function issueDateOf(reference: string): { issue_date?: string } {
  const date = / \((\d{4}-\d{2}-\d{2})\)$/.exec(reference)?.[1];
  return date ? { issue_date: date } : {};
}
