import { validationFailed } from '../../../errors.js';
import type { PreparedInvoice } from '../../../invoice/prepareInvoice.js';
import type { PrintedAdditions } from '../format.js';
import { profileRulesFailed } from '../../rulesFailed.js';
import type { VerifactuFields } from './fields.js';
import { checkVerifactuObject, VERIFACTU_TITLE } from './request.js';

/**
 * The module's printing hook (format.ts PrintingHook): an invoice PDF for a Spanish issuer
 * (POST /v1/invoice.pdf and its validate, /v1/e-invoice/factur-x.pdf) with a `verifactu` object is
 * checked as the record route checks it (a 400 with AEAT's codes, before payment) and prints AEAT's
 * "QR tributario" at the top of page 1, and each equivalence surcharge as a row of its own, so that
 * the printed total is the record's ImporteTotal. The QR's nif, numserie, fecha and importe are the
 * values the RegistroAlta of the same request carries, whatever the moment each was made: they
 * depend on neither the generation time nor the SistemaInformatico (the defaults serve).
 */
export function printVerifactu(prepared: PreparedInvoice, fields: VerifactuFields, at: Date): PrintedAdditions {
  const { issues, own } = checkVerifactuObject(prepared, fields, at);
  if (issues.length > 0) throw profileRulesFailed(VERIFACTU_TITLE, issues);
  const { record } = own;
  if (record.kind !== 'alta')
    throw validationFailed([
      {
        path: 'verifactu.record',
        code: 'verifactu_cancellation_pdf',
        message:
          'is cancellation: a cancelled invoice has no QR to print (ask POST /v1/e-invoice/verifactu.xml for its RegistroAnulacion)',
      },
    ]);
  // The record's amounts are negative for a credit note; the page prints them as the invoice's totals do.
  const sign = prepared.invoice.document_type === 'credit_note' ? -1n : 1n;
  const surcharges = record.details.flatMap((line) =>
    line.surchargeRate === undefined
      ? []
      : [
          {
            rate: line.surchargeRate,
            taxable: sign * line.baseMinor,
            amount: sign * line.surchargeMinor,
            path: `verifactu.vat_groups[${line.entry ?? 0}].surcharge_rate`,
          },
        ],
  );
  return {
    // AEAT's texts, in Spanish whatever the invoice's language (QR specification §3).
    pageTopCode: {
      text: record.qrUrl,
      caption: 'QR tributario:',
      legend: fields.mode === 'verifactu' ? 'VERI*FACTU' : null,
      lang: 'es',
    },
    surcharges,
  };
}
