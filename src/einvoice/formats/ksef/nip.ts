/**
 * The Polish tax identification number (NIP): ten digits whose last is a checksum, the weighted sum
 * of the first nine (weights 6 5 7 2 3 4 5 6 7) modulo 11; a sum of 10 is never issued. FA(3)'s
 * schema adds only the shape (etd:TNrNIP: first digit 1-9, not two zeros in positions 2-3).
 */
const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7] as const;
const NIP_SHAPE = /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/;

export function isValidNip(nip: string): boolean {
  if (!NIP_SHAPE.test(nip)) return false;
  const sum = WEIGHTS.reduce((total, weight, at) => total + weight * Number(nip[at]), 0);
  const check = sum % 11;
  return check !== 10 && check === Number(nip[9]);
}

/** The NIP of a Polish VAT identifier (PL + 10 digits), undefined for any other identifier. */
export function nipOfVatId(vatId: string | undefined): string | undefined {
  const match = /^PL(\d{10})$/.exec(vatId ?? '');
  return match ? match[1] : undefined;
}
