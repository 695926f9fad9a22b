import { createHash } from 'node:crypto';
import * as v from 'valibot';
import { rejected } from '../../../errors.js';
import { parseOrReject } from '../../../invoice/issues.js';
import type { InboundInvoice } from '../../inbound/model.js';
import type { VerificationCode } from '../../../invoice/inboundInvoice.js';
import type { VerificationCodeHook } from '../format.js';
import { checkKsefNumber } from './ksefNumber.js';

/**
 * KOD I, the KSeF verification code an FA(3) printed outside KSeF carries (the ministry's
 * kody-qr.md, "KOD I – Weryfikacja i pobieranie faktury"): the link
 * {host}/invoice/{seller NIP}/{P_1 as DD-MM-YYYY}/{SHA-256 of the invoice file, Base64URL without
 * padding}, the hash taken over the file's bytes exactly as received (never a re-serialisation),
 * captioned with the invoice's KSeF number when it has one, else OFFLINE. KOD II (the offline
 * certificate code, signed with the taxpayer's KSeF certificate) is not produced.
 */
const KSEF_QR_HOSTS = {
  production: 'https://qr.ksef.mf.gov.pl',
  test: 'https://qr-test.ksef.mf.gov.pl',
  demo: 'https://qr-demo.ksef.mf.gov.pl',
} as const;
export type KsefEnvironment = keyof typeof KSEF_QR_HOSTS;
const KSEF_ENVIRONMENTS = Object.keys(KSEF_QR_HOSTS) as [KsefEnvironment, ...KsefEnvironment[]];

function invoiceHash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

const refuse = (path: string, code: string, message: string) => rejected(code, message, [{ path, code, message }]);

/** The link and caption; a KSeF number that is malformed, fails its checksum or names another seller is a 400. */
export function kodI(
  bytes: Uint8Array,
  document: { sellerNip: string | undefined; issueDate: string },
  ksefNumber: string | undefined,
  environment: KsefEnvironment,
): VerificationCode {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(document.issueDate);
  if (!document.sellerNip || !/^\d{10}$/.test(document.sellerNip) || !date)
    throw refuse(
      '',
      'ksef_qr_unavailable',
      'The FA(3) has no seller NIP or issue date (P_1) to build its KSeF verification code from.',
    );
  let caption = 'OFFLINE';
  if (ksefNumber !== undefined) {
    const checked = checkKsefNumber(ksefNumber);
    if (!checked.valid)
      throw checked.reason === 'malformed'
        ? refuse(
            'ksef_number',
            'ksef_number_malformed',
            'ksef_number is not a KSeF number (NIP-YYYYMMDD-12 hex digits-2 hex digits).',
          )
        : refuse(
            'ksef_number',
            'ksef_number_checksum',
            'ksef_number fails its CRC-8 checksum (its last two hex digits).',
          );
    if (checked.nip !== document.sellerNip)
      throw refuse(
        'ksef_number',
        'ksef_number_seller',
        `ksef_number names NIP ${checked.nip}, but the invoice's seller (Podmiot1) is NIP ${document.sellerNip}.`,
      );
    caption = checked.canonical;
  }
  return {
    name: { text: 'KOD I · weryfikacja w KSeF', lang: 'pl' },
    link: `${KSEF_QR_HOSTS[environment]}/invoice/${document.sellerNip}/${date[3]}-${date[2]}-${date[1]}/${invoiceHash(bytes)}`,
    caption,
  };
}

/** render.pdf's arguments of KOD I: query parameters, or JSON fields as over MCP. */
const KOD_I_ARGUMENTS = {
  ksef_number: v.optional(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(36, 'must be at most 36 characters'),
      v.description(
        "FA(3) only: the invoice's KSeF number, printed under its verification QR code (KOD I); checked (format, CRC-8, the seller's NIP). Absent: OFFLINE.",
      ),
    ),
  ),
  ksef_environment: v.optional(
    v.pipe(
      v.picklist(KSEF_ENVIRONMENTS, `must be one of ${KSEF_ENVIRONMENTS.join(', ')}`),
      v.description(
        'FA(3) only: the KSeF environment of the QR link: production (default, qr.ksef.mf.gov.pl), test or demo.',
      ),
    ),
  ),
};

/** The seller's NIP as written (readFa3.ts reads Podmiot1's NIP as its VAT id, prefixed PL or PrefiksPodatnika). */
const sellerNipOf = (invoice: InboundInvoice) => /^[A-Z]{2}(\d{10})$/.exec(invoice.seller.vatId ?? '')?.[1];

/**
 * The format module's verification-code hook (format.ts): KOD I on every printed FA(3), over its XML
 * file as received, sent as itself, in a .p7m or attached to a PDF (the file KSeF holds is that XML,
 * never the PDF). An FA(3) inside a Peppol envelope has no file of its own to hash: no code.
 */
export const kodIHook: VerificationCodeHook = {
  arguments: KOD_I_ARGUMENTS,
  // The server's KSEF_QR_ENVIRONMENT (config.ts) when the request names no ksef_environment.
  defaults: { ksef_environment: 'KSEF_QR_ENVIRONMENT' },
  build(invoice, received, args) {
    if (invoice.syntax !== 'fa3' || !received.file) return undefined;
    const checked = parseOrReject(v.object(KOD_I_ARGUMENTS), args);
    return kodI(
      received.file,
      { sellerNip: sellerNipOf(invoice), issueDate: invoice.issueDate },
      checked.ksef_number,
      checked.ksef_environment ?? 'production',
    );
  },
};
