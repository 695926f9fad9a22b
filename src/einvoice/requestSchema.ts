import * as v from 'valibot';
import { InvoiceFieldsSchema } from '../invoice/schema.js';
import { FORMATS } from './formats/registry.js';
import { ProfileField } from './profiles.js';

type WithRequestObject = Extract<(typeof FORMATS)[number], { checks: { own: object } }>;

/** The request objects format modules bring, each named after its profile (FA(3)'s `ksef`). */
const FORMAT_REQUEST_FIELDS = Object.fromEntries(
  FORMATS.flatMap((format) =>
    'checks' in format && 'own' in format.checks ? [[format.id, format.checks.own.field]] : [],
  ),
) as { [F in WithRequestObject as F['id']]: F['checks']['own']['field'] };

/**
 * The body of the e-invoice routes (and their MCP tools): the invoice of /v1/invoice.pdf plus the
 * optional top-level `profile`. Used for the documents (OpenAPI, MCP input schemas);
 * prepareEInvoice.ts takes `profile` off and validates the rest with InvoiceSchema itself.
 */
export const EInvoiceRequestSchema = v.pipe(
  v.strictObject(
    { ...InvoiceFieldsSchema.entries, profile: ProfileField, ...FORMAT_REQUEST_FIELDS },
    'unknown property',
  ),
  v.forward(
    v.partialCheck(
      [['issue_date'], ['due_date']],
      (input) => input.due_date === undefined || input.due_date >= input.issue_date,
      'must not be before issue_date',
    ),
    ['due_date'],
  ),
);
