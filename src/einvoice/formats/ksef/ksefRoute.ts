import type { Issue } from '../../../errors.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import { prepareKsefRequest } from './ksefRequest.js';
import { writeFa3 } from './writeFa3.js';

/**
 * POST /v1/e-invoice/ksef.xml's parse, run on the compute pool: the request checked under FA(3)'s
 * rules (a 400 naming every issue, before any payment) and its XML written there too, so neither
 * the checks nor the writing runs on the event loop. The optional `profile` may only be ksef.
 */
export interface KsefXml {
  xml: Uint8Array;
  fileName: string;
}

export function parseKsefRoute(body: unknown, now: Date = new Date()): KsefXml {
  const { prepared, xml } = prepareKsefItem(body, now);
  const stem = prepared.invoice.invoice_number.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 64);
  return { xml, fileName: `invoice-${stem}-ksef-fa3.xml` };
}

/** A request checked and written: the single route's and a batch item's (format ksef) work before payment. */
export function prepareKsefItem(
  body: unknown,
  now: Date = new Date(),
): { prepared: PreparedInvoice; profile: 'ksef'; xml: Buffer } {
  const { invoiceBody, issues } = withoutProfile(body);
  const checked = prepareKsefRequest(invoiceBody, issues);
  return { prepared: checked.prepared, profile: 'ksef', xml: writeFa3(checked, now) };
}

function withoutProfile(body: unknown): { invoiceBody: unknown; issues: Issue[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('profile' in body))
    return { invoiceBody: body, issues: [] };
  const { profile, ...invoiceBody } = body as Record<string, unknown>;
  return profile === 'ksef'
    ? { invoiceBody, issues: [] }
    : {
        invoiceBody,
        issues: [
          { path: 'profile', code: 'profile_format', message: 'must be ksef (or absent) on /v1/e-invoice/ksef.xml' },
        ],
      };
}
