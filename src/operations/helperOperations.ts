import * as v from 'valibot';
import { computeLateFee } from '../helpers/lateFee/computeLateFee.js';
import { LATE_FEE_EXAMPLE, LateFeeRequestSchema, LateFeeResultSchema } from '../helpers/lateFee/schema.js';
import { computePaymentTerms } from '../helpers/paymentTerms/computePaymentTerms.js';
import {
  PAYMENT_TERMS_EXAMPLE,
  PaymentTermsRequestSchema,
  PaymentTermsResultSchema,
} from '../helpers/paymentTerms/schema.js';
import { draftReminder } from '../helpers/reminderDraft/draftReminder.js';
import {
  REMINDER_DRAFT_EXAMPLE,
  ReminderDraftRequestSchema,
  ReminderDraftSchema,
} from '../helpers/reminderDraft/schema.js';
import { invoiceFromTimesheet } from '../helpers/timesheet/invoiceFromTimesheet.js';
import { TIMESHEET_EXAMPLE, TimesheetRequestSchema, TimesheetResultSchema } from '../helpers/timesheet/schema.js';
import { parseOrReject } from '../invoice/issues.js';
import type { Operation, OperationContext } from './operation.js';

// Examples in the docs are computed for a fixed day so the published documents don't change daily.
const EXAMPLE_CONTEXT: OperationContext = { today: '2026-11-22' };

/** What sets one helper row apart; `helperRow` adds what the four share. */
interface HelperRow<TSchema extends v.GenericSchema> {
  path: `/v1/${string}`;
  operationId: string;
  summary: string;
  description: string;
  request: TSchema;
  example: v.InferInput<TSchema>;
  response: v.GenericSchema;
  compute(input: v.InferOutput<TSchema>, context: OperationContext): unknown;
}

/**
 * A free JSON helper: its strict request schema validates the body on the compute pool (every
 * issue listed), its pure function computes the answer there too, `today` read per call (UTC); the
 * documented answer is its example's, computed for EXAMPLE_CONTEXT.
 */
function helperRow<TSchema extends v.GenericSchema>(row: HelperRow<TSchema>): Operation<v.InferOutput<TSchema>> {
  return {
    method: 'POST',
    path: row.path,
    operationId: row.operationId,
    summary: row.summary,
    description: row.description,
    tag: 'Helpers',
    request: {
      schema: row.request,
      example: row.example,
      parse: (body: unknown) => parseOrReject(row.request, body),
    },
    response: {
      contentType: 'application/json',
      description: 'The computed result.',
      schema: row.response,
      example: row.compute(v.parse(row.request, row.example), EXAMPLE_CONTEXT),
    },
    compute: row.compute,
  };
}

/** The four free helpers, in the order the docs list them. */
export function helperOperations(): Operation[] {
  return [
    helperRow({
      path: '/v1/reminder-draft',
      operationId: 'v1_reminder_draft',
      summary: 'Draft a payment reminder email (subject and body) for an invoice',
      description:
        'Writes a plain-text payment reminder in one of four tones (friendly, neutral, firm, final) whose wording follows the invoice status on as_of ' +
        '(default today, UTC): upcoming, due today or overdue, with the days overdue. The amount is formatted for the currency from exact minor units; ' +
        'an optional https payment link is included. Texts come from editable templates.',
      request: ReminderDraftRequestSchema,
      example: REMINDER_DRAFT_EXAMPLE,
      response: ReminderDraftSchema,
      compute: (input, context) => draftReminder(input, context.today),
    }),
    helperRow({
      path: '/v1/late-fee',
      operationId: 'v1_late_fee',
      summary: 'Late fee or interest on an overdue invoice, with a per-period schedule and US state rules',
      description:
        'Computes a late fee in exact minor units: monthly_percent (default) or annual_percent (charged as 1/12 a month) per monthly period, simple or compounding monthly, ' +
        'or a flat fee charged once. No fee up to grace_days after the due date; after that every begun month is one period, rounded once per period (half away from zero). ' +
        'With a state, answers what the US state table says (legal rate when the contract is silent, written-contract cap, citation, source), warns when the rate is above those figures, ' +
        'and uses the legal rate when rate_percent is omitted. Unknown figures stay null. Not legal advice.',
      request: LateFeeRequestSchema,
      example: LATE_FEE_EXAMPLE,
      response: LateFeeResultSchema,
      compute: (input, context) => computeLateFee(input, context.today),
    }),
    helperRow({
      path: '/v1/payment-terms',
      operationId: 'v1_payment_terms',
      summary: 'Due date, early-payment discount and its annualised cost from payment terms',
      description:
        'Reads terms written as "Net N", "D/X Net N", "Net N EOM" (N days after the end of the invoice month) or "Due on receipt" and answers the due date, ' +
        'the discount deadline, the discount and the discounted amount in exact minor units, whether the discount is still available on as_of (default today, UTC), ' +
        'the days until due (negative when overdue) and the annualised cost of forgoing the discount, simple d/(1−d) × 365/(N−X) and compounded, in percent rounded to 2 decimals.',
      request: PaymentTermsRequestSchema,
      example: PAYMENT_TERMS_EXAMPLE,
      response: PaymentTermsResultSchema,
      compute: (input, context) => computePaymentTerms(input, context.today),
    }),
    helperRow({
      path: '/v1/invoice-from-timesheet',
      operationId: 'v1_invoice_from_timesheet',
      summary: 'Build an invoice body from timesheet entries and expenses',
      description:
        'Rounds each entry up, to the nearest or down to increment_minutes (a multiple of 3), bills it at its own rate or default_rate, groups the entries into lines ' +
        '(by description, by date or none), adds expenses as quantity-1 lines, derives due_date from terms ("Net N", "Net N EOM", "Due on receipt") and answers ' +
        '{ invoice, totals, summary }: an invoice that POST /v1/invoice.pdf accepts unchanged, its computed totals, and the hours before and after rounding per line. ' +
        'Groups that round to 0 hours are left off and listed in summary.omitted_entries; more than 200 lines is a 400.',
      request: TimesheetRequestSchema,
      example: TIMESHEET_EXAMPLE,
      response: TimesheetResultSchema,
      compute: (input) => invoiceFromTimesheet(input),
    }),
  ];
}
