/**
 * EPC069-12 (European Payments Council, "Quick Response Code: guidelines to enable data capture
 * for the initiation of a SEPA credit transfer"), version 002: one element per line, LF between
 * them, trailing empty elements left out.
 */
export interface EpcFields {
  /** Optional in version 002 inside the EEA. */
  bic?: string | undefined;
  /** Beneficiary name, at most 70 characters. */
  name: string;
  iban: string;
  /** "12.30": 0.01 to 999999999.99, dot, at most 2 decimals; empty for no amount. */
  amount?: string | undefined;
  /** ISO 20022 purpose code, 4 letters. */
  purpose?: string | undefined;
  /** ISO 11649 RF reference (structured); excludes `text`. */
  creditorReference?: string | undefined;
  /** Unstructured remittance, at most 140 characters; excludes `creditorReference`. */
  text?: string | undefined;
  /** Beneficiary to originator information, at most 70 characters. */
  information?: string | undefined;
}

export const EPC_LIMITS = {
  name: 70,
  text: 140,
  information: 70,
  /** Amount range in euro cents. */
  minAmountMinor: 1n,
  maxAmountMinor: 99_999_999_999n,
  /** The whole payload, in bytes (UTF-8). */
  payloadBytes: 331,
} as const;

export function epcPayload(fields: EpcFields): string {
  if (fields.creditorReference && fields.text)
    throw new Error('epcPayload: a structured and an unstructured remittance exclude each other');
  const lines = [
    'BCD',
    '002',
    '1', // character set: UTF-8
    'SCT',
    fields.bic ?? '',
    fields.name,
    fields.iban,
    fields.amount ? `EUR${fields.amount}` : '',
    fields.purpose ?? '',
    fields.creditorReference ?? '',
    fields.text ?? '',
    fields.information ?? '',
  ];
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}
