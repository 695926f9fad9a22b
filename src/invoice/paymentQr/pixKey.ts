import type { Checked } from './iban.js';

/**
 * PIX keys as the DICT (Banco Central do Brasil) defines them: e-mail (at most 77 characters),
 * phone (+55, area code, 8 or 9 digits), CPF (11 digits), CNPJ (14 characters, numeric or the
 * alphanumeric form valid since July 2026) each with their check digits, or a random key (EVP, a
 * UUID v4). Formatted CPF/CNPJ (123.456.789-09, 12.345.678/0001-95) are accepted and stored bare.
 */
export type PixKeyType = 'email' | 'phone' | 'cpf' | 'cnpj' | 'evp';
export interface PixKey {
  type: PixKeyType;
  value: string;
}

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
const PHONE = /^\+55[1-9]{2}(?:9\d{8}|[2-8]\d{7})$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CPF_FORMATTED = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
const CNPJ_FORMATTED = /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/;
const EMAIL_MAX = 77;

export function checkPixKey(input: string): Checked<PixKey> {
  if (input.includes('@')) {
    if (input.length > EMAIL_MAX || !EMAIL.test(input))
      return {
        ok: false,
        reason: `must be a PIX key; as an e-mail key: name@example.com, at most ${EMAIL_MAX} characters`,
      };
    return { ok: true, value: { type: 'email', value: input } };
  }
  if (input.startsWith('+')) {
    if (!PHONE.test(input))
      return {
        ok: false,
        reason:
          'must be a PIX key; as a phone key: +55, 2-digit area code, then 8 or 9 digits, no spaces (+5561988887777)',
      };
    return { ok: true, value: { type: 'phone', value: input } };
  }
  if (input.includes('-') && input.length === 36) {
    const evp = input.toLowerCase();
    if (!EVP.test(evp))
      return {
        ok: false,
        reason: 'must be a PIX key; as a random key (EVP): a UUID v4 such as 0b9f2f1e-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
      };
    return { ok: true, value: { type: 'evp', value: evp } };
  }
  const bare =
    CPF_FORMATTED.test(input) || CNPJ_FORMATTED.test(input.toUpperCase())
      ? input.replace(/[./-]/g, '').toUpperCase()
      : input.toUpperCase();
  if (/^\d{11}$/.test(bare)) {
    return isCpf(bare)
      ? { ok: true, value: { type: 'cpf', value: bare } }
      : { ok: false, reason: 'is not a valid CPF (wrong check digits): check for a typo' };
  }
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare)) {
    return isCnpj(bare)
      ? { ok: true, value: { type: 'cnpj', value: bare } }
      : { ok: false, reason: 'is not a valid CNPJ (wrong check digits): check for a typo' };
  }
  return {
    ok: false,
    reason:
      'must be a PIX key: an e-mail, a +55 phone number, a CPF (11 digits), a CNPJ (14 characters) or a random key (UUID)',
  };
}

/** CPF: two mod-11 check digits over weights 10…2 and 11…2; eleven equal digits are refused. */
export function isCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += digits[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === digits[9] && check(10) === digits[10];
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/**
 * CNPJ: two mod-11 check digits; each character counts as its code minus 48 (digits as
 * themselves, A = 17 …), which is how Receita Federal extends the rule to alphanumeric CNPJs.
 */
export function isCnpj(cnpj: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const values = [...cnpj].map((char) => char.charCodeAt(0) - 48);
  const check = (length: 12 | 13) => {
    const weights = CNPJ_WEIGHTS.slice(13 - length);
    const sum = weights.reduce((total, weight, i) => total + weight * values[i]!, 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(12) === values[12] && check(13) === values[13];
}
