import type { Issue } from '../../errors.js';
import type { Invoice, Party } from '../../invoice/schema.js';
import type { Rule, RuleContext } from '../rules.js';

/**
 * The building blocks of the formats' own rule checks (formats/<id>/rules.ts), written from the
 * official rule texts: the rules a request of this service can break, each issue naming the
 * request field (path) and the official rule id (code). What the XML writers guarantee by
 * construction (identifiers, code lists, amounts) is not repeated; the corpus tests run the
 * official rules over the output to prove it.
 */
export type Role = 'seller' | 'buyer';
type Check = (c: RuleContext) => Omit<Issue, 'code'>[];

export const blank = (value: string | undefined) => value === undefined || value.trim() === '';
export const rule = (id: string, summary: string, check: Check): Rule => ({ id, summary, check });

/** A rule that asks for one field: `path` must be present when `applies`. */
export function required(
  id: string,
  summary: string,
  path: string,
  value: (invoice: Invoice) => string | object | undefined,
  applies: (c: RuleContext) => boolean = () => true,
): Rule {
  return rule(id, summary, (c) => {
    if (!applies(c)) return [];
    const present = value(c.invoice);
    return present === undefined || (typeof present === 'string' && blank(present))
      ? [{ path, message: `is required (${id}): ${summary.split(' is required:')[0]!.split(': ')[0]}` }]
      : [];
  });
}

export const partyField = (role: Role, field: keyof Party) => (invoice: Invoice) =>
  invoice[role][field] as string | object | undefined;
export const isCreditNote = (c: RuleContext) => c.invoice.document_type === 'credit_note';
export const hasCategory = (c: RuleContext, category: string) => c.categories.has(category as never);

export const electronicAddress = (id: string, role: Role, bt: string) =>
  required(
    id,
    `the ${role}'s electronic address (${bt}) is required: ${role}.electronic_address { scheme, id }`,
    `${role}.electronic_address`,
    partyField(role, 'electronic_address'),
  );
