import * as v from 'valibot';
import { InvoiceFieldsSchema } from '../invoice/schema.js';
import { KsefField } from './formats/ksef/ksefFields.js';
import { ProfileField } from './profiles.js';

/**
 * The body of the e-invoice routes (and their MCP tools): the invoice of /v1/invoice.pdf plus the
 * optional top-level `profile`. Used for the documents (OpenAPI, MCP input schemas);
 * prepareEInvoice.ts takes `profile` off and validates the rest with InvoiceSchema itself.
 */
export const EInvoiceRequestSchema = v.pipe(
  v.strictObject({ ...InvoiceFieldsSchema.entries, profile: ProfileField, ksef: KsefField }, 'unknown property'),
  v.forward(
    v.partialCheck(
      [['issue_date'], ['due_date']],
      (input) => input.due_date === undefined || input.due_date >= input.issue_date,
      'must not be before issue_date',
    ),
    ['due_date'],
  ),
);
