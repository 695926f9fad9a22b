import { rejected, validationFailed, type Issue } from '../../errors.js';
import { decimalFromNumber, decimalToString } from '../../invoice/decimal.js';
import { prepareInvoice } from '../../invoice/prepareInvoice.js';
import { LIMITS, type InvoiceInput, type LineItem } from '../../invoice/schema.js';
import { buildTotalsReport } from '../../invoice/totalsReport.js';
import { dueDateUnder, parseTerms, type ParsedTerms } from '../termsExpression.js';
import { groupEntries, type BilledEntry, type EntryGroup } from './groupEntries.js';
import { addHours, hoursFromMinutes, hoursToNumber, isPositive, roundedMinutes, ZERO_HOURS } from './hours.js';
import type { TimesheetRequest, TimesheetResult } from './schema.js';

/**
 * Builds an invoice from time entries: each entry is rounded on its own (rounding.mode to
 * rounding.increment_minutes), then entries are grouped into lines whose quantity is the rounded
 * hours and whose unit price is the hourly rate; expenses follow as lines of quantity 1. A group
 * that rounds to 0 hours cannot be an invoice line (quantity must be > 0): it is left off and its
 * entries are listed in summary.omitted_entries, never dropped silently.
 */
export function invoiceFromTimesheet(input: TimesheetRequest): TimesheetResult {
  const terms = checkFields(input);
  const entries = billedEntries(input);
  const groups = groupEntries(entries, input.group_by);
  const billed = groups.filter((group) => isPositive(group.hoursBilled));
  checkLineQuantities(billed);

  const expenses = input.expenses ?? [];
  const lineItems: LineItem[] = [
    // Hours are printed as such ("12.5 h", "12,5 Std."): UN/ECE Rec 20 HUR.
    ...billed.map((group) => ({
      description: group.description,
      quantity: hoursToNumber(group.hoursBilled),
      unit: 'HUR',
      unit_price: group.rate,
    })),
    ...expenses.map((expense) => ({ description: expense.description, quantity: 1, unit_price: expense.amount })),
  ];
  checkLineCount(lineItems.length, billed.length, expenses.length, input.group_by);

  const invoice: InvoiceInput = {
    seller: input.seller,
    buyer: input.buyer,
    invoice_number: input.invoice_number,
    issue_date: input.issue_date,
    ...(terms ? { due_date: dueDateUnder(terms, input.issue_date) } : {}),
    currency: input.currency,
    line_items: lineItems,
    ...(input.tax_rate !== undefined ? { tax_rate: input.tax_rate } : {}),
    ...(input.notes !== undefined ? { notes: input.notes } : {}),
    ...(input.payment_instructions !== undefined ? { payment_instructions: input.payment_instructions } : {}),
    ...(input.locale !== undefined ? { locale: input.locale } : {}),
    ...(input.purchase_order !== undefined ? { purchase_order: input.purchase_order } : {}),
    ...(input.buyer_reference !== undefined ? { buyer_reference: input.buyer_reference } : {}),
    ...(input.payment !== undefined ? { payment: input.payment } : {}),
  };
  const prepared = prepareInvoice(invoice);

  return {
    invoice: prepared.invoice,
    totals: buildTotalsReport(prepared),
    summary: {
      group_by: input.group_by,
      rounding: input.rounding ?? null,
      entries: entries.length,
      hours_before_rounding: hoursToNumber(entries.reduce((sum, entry) => addHours(sum, entry.hoursSent), ZERO_HOURS)),
      hours_after_rounding: hoursToNumber(entries.reduce((sum, entry) => addHours(sum, entry.hoursBilled), ZERO_HOURS)),
      groups: groups.map((group) => ({
        line_index: billed.includes(group) ? billed.indexOf(group) : null,
        description: group.description,
        date: group.date,
        rate: group.rate,
        entries: group.entries,
        hours_before_rounding: hoursToNumber(group.hoursSent),
        hours_after_rounding: hoursToNumber(group.hoursBilled),
      })),
      omitted_entries: groups.filter((group) => !isPositive(group.hoursBilled)).flatMap((group) => group.entries),
      expense_lines: expenses.length,
    },
  };
}

/** Rules the schema cannot state (the terms text, a rate for every entry), every issue at once; answers the terms. */
function checkFields(input: TimesheetRequest): ParsedTerms | undefined {
  const issues: Issue[] = [];
  let terms: ParsedTerms | undefined;
  if (input.terms !== undefined) {
    const reading = parseTerms(input.terms, { discount: false });
    if (reading.ok) terms = reading.terms;
    else issues.push({ path: 'terms', code: 'invalid_terms', message: reading.message });
  }
  issues.push(...missingRates(input));
  if (issues.length > 0) throw validationFailed(issues);
  return terms;
}

function missingRates(input: TimesheetRequest): Issue[] {
  if (input.default_rate !== undefined) return [];
  return input.entries.flatMap((entry, index) =>
    entry.rate === undefined
      ? [{ path: `entries[${index}].rate`, code: 'required', message: 'is required because default_rate is not set' }]
      : [],
  );
}

function billedEntries(input: TimesheetRequest): BilledEntry[] {
  const { rounding } = input;
  return input.entries.map((entry, index) => {
    const hoursSent = decimalFromNumber(entry.hours);
    return {
      index,
      date: entry.date,
      description: entry.description,
      // checkFields has made sure that every entry without a rate has default_rate to fall back on.
      rate: entry.rate ?? input.default_rate ?? 0,
      hoursSent,
      hoursBilled: rounding
        ? hoursFromMinutes(roundedMinutes(entry.hours, rounding.increment_minutes, rounding.mode))
        : hoursSent,
    };
  });
}

function checkLineQuantities(groups: readonly EntryGroup[]): void {
  const max = LIMITS.quantity;
  const issues = groups
    .filter((group) => hoursToNumber(group.hoursBilled) > max)
    .map((group) => ({
      path: `entries[${group.entries[0] ?? 0}]`,
      code: 'too_many_hours',
      message: `with the other entries of line "${group.description}" adds up to ${decimalToString(group.hoursBilled)} hours; an invoice line holds at most ${max}`,
    }));
  if (issues.length > 0) throw validationFailed(issues);
}

function checkLineCount(
  lines: number,
  timeLines: number,
  expenseLines: number,
  groupBy: TimesheetRequest['group_by'],
): void {
  const max = LIMITS.lineItems.max;
  if (lines > max) {
    const advice = groupBy === 'none' ? 'Group by description or date' : 'Send fewer entries or expenses per invoice';
    throw rejected(
      'too_many_lines',
      `The timesheet makes ${lines} invoice lines (${timeLines} from entries grouped by ${groupBy}, ${expenseLines} from expenses); an invoice holds at most ${max}. ${advice}.`,
      [
        {
          path: 'entries',
          code: 'too_many_lines',
          message: `make ${lines} invoice lines, more than the ${max} an invoice holds`,
        },
      ],
    );
  }
  if (lines === 0) {
    throw rejected(
      'nothing_to_invoice',
      'Every entry rounds to 0 hours and there are no expenses, so the invoice would have no lines.',
      [
        {
          path: 'entries',
          code: 'nothing_to_invoice',
          message: 'every entry rounds to 0 hours; use a smaller increment or another rounding mode',
        },
      ],
    );
  }
}
