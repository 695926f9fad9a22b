import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { CURRENCIES, CURRENCY_CODES, DEFAULT_CURRENCY } from './currencies.js';
import { directionOf, LANGUAGES } from './locales.js';
import { InvoiceSchema } from './schema.js';

/** JSON Schema (2020-12) of a valibot schema; checks JSON Schema cannot express are described in text. */
export function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  return toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore' }) as Record<string, unknown>;
}

export interface FieldNote {
  path: string;
  type: string;
  required: boolean;
  description?: string;
  limits: Record<string, unknown>;
}

const LIMIT_KEYS = [
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
  'enum',
  'format',
  'default',
];

/** Walks the JSON Schema and lists every field with its limits, so the notes can't drift from validation. */
function listFields(schema: Record<string, unknown>, prefix = '', required = true): FieldNote[] {
  const notes: FieldNote[] = [];
  const type = String(schema.type ?? (schema.enum ? 'string' : 'any'));
  if (prefix) {
    const limits = Object.fromEntries(LIMIT_KEYS.filter((key) => key in schema).map((key) => [key, schema[key]]));
    notes.push({
      path: prefix,
      type,
      required,
      ...(schema.description ? { description: String(schema.description) } : {}),
      limits,
    });
  }
  if (type === 'object' && schema.properties) {
    const requiredKeys = new Set((schema.required as string[] | undefined) ?? []);
    for (const [key, child] of Object.entries(schema.properties as Record<string, Record<string, unknown>>)) {
      notes.push(...listFields(child, prefix ? `${prefix}.${key}` : key, requiredKeys.has(key)));
    }
  }
  if (type === 'array' && schema.items)
    notes.push(...listFields(schema.items as Record<string, unknown>, `${prefix}[]`, true));
  return notes;
}

const TOTALS_FORMULA = [
  'line.amount = round(quantity × unit_price × 10^digits)',
  'subtotal = Σ line.amount',
  'discount = round(discount × 10^digits); a discount larger than the subtotal is a 400 (discount_exceeds_subtotal)',
  'taxable = subtotal − discount',
  "lines are grouped by (tax_category, rate) in order of first appearance; a line's rate is its tax_rate, else the invoice's tax_rate, else 0; group.net = Σ line.amount",
  'the discount is shared among the groups: share = floor(discount × group.net / subtotal), the minor units left over go one each to the groups with the largest remainders (ties to the earlier group)',
  'group.tax = round((group.net − share) × rate / 100); tax = Σ group.tax (with one rate: tax = round(taxable × tax_rate / 100))',
  "total = taxable + tax, plus any surcharge on top of VAT that a format's object adds (Spain's equivalence surcharge, verifactu.vat_groups[].surcharge_rate: round(group.taxable × surcharge_rate / 100) per group, answered in surcharges)",
  'balance_due = total − round(amount_paid × 10^digits) + round(rounding_amount × 10^digits); an amount paid above the total is a 400 (amount_paid_exceeds_total), a negative balance due a 400 (rounding_makes_due_negative)',
];

/** The field notes of any object schema (a format's request object: /v1/schema's e_invoice_profiles). */
export const describeSchemaFields = (schema: v.GenericSchema): FieldNote[] => listFields(jsonSchemaOf(schema));

export function describeInvoiceFields() {
  return {
    fields: listFields(jsonSchemaOf(InvoiceSchema)),
    rules: [
      'Unknown properties are rejected at every level.',
      'issue_date and due_date must be real calendar dates; due_date may not be before issue_date.',
      'Text may contain any Unicode except control characters (newline and tab are allowed); it is kept as sent.',
      'Numbers are read as the exact decimal they are written as (0.1 is exactly one tenth).',
      "A line's tax_category must agree with its rate: S needs a rate above 0, Z, E, AE, K, G and O a rate of 0.",
      'tax_exemption_reason only with lines in E, AE, K, G or O; without it those invoices print the standard wording of the language.',
      'logo: a PNG or JPEG data URI, checked by its bytes (SVG refused), at most 256 KiB and 4000 pixels per side.',
    ],
    languages: LANGUAGES.map((language) => ({
      language,
      direction: directionOf(language),
      catalog: `templates/locales/${language}.json`,
    })),
    totals: {
      formula: TOTALS_FORMULA,
      rounding: 'round() is half away from zero, applied once per line, once to the discount and once to the tax.',
      units:
        'Amounts are answered in integer minor units (cents; yen for JPY), exact decimal text and formatted text. An amount above 2^53 − 1 minor units is a 400 (amount_out_of_range).',
    },
    currencies: CURRENCY_CODES.map((code) => ({
      code,
      digits: CURRENCIES[code].digits,
      locale: CURRENCIES[code].locale,
      default: code === DEFAULT_CURRENCY,
    })),
  };
}
