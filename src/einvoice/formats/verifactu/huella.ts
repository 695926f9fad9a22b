import { createHash } from 'node:crypto';

/**
 * The record's "huella" (AEAT, Especificaciones huella/hash v0.1.2): SHA-256 over the UTF-8
 * bytes of `name=value` pairs in a fixed order joined by `&`, upper-case hexadecimal. Each value
 * is the element's text as written in the XML, trimmed; an absent one is `name=` (the first
 * record's previous huella). Amounts are hashed as written: "21.4" and "21.40" give different
 * huellas, so the writer hashes the very text it writes.
 */
export interface AltaHashFields {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  FechaExpedicionFactura: string;
  TipoFactura: string;
  CuotaTotal: string;
  ImporteTotal: string;
  /** The previous record's huella; '' for the first record. */
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

export interface AnulacionHashFields {
  IDEmisorFacturaAnulada: string;
  NumSerieFacturaAnulada: string;
  FechaExpedicionFacturaAnulada: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

const ALTA_ORDER = [
  'IDEmisorFactura',
  'NumSerieFactura',
  'FechaExpedicionFactura',
  'TipoFactura',
  'CuotaTotal',
  'ImporteTotal',
  'Huella',
  'FechaHoraHusoGenRegistro',
] as const;

const ANULACION_ORDER = [
  'IDEmisorFacturaAnulada',
  'NumSerieFacturaAnulada',
  'FechaExpedicionFacturaAnulada',
  'Huella',
  'FechaHoraHusoGenRegistro',
] as const;

export function altaHashInput(fields: AltaHashFields): string {
  return ALTA_ORDER.map((name) => `${name}=${fields[name].trim()}`).join('&');
}

export function anulacionHashInput(fields: AnulacionHashFields): string {
  return ANULACION_ORDER.map((name) => `${name}=${fields[name].trim()}`).join('&');
}

export function sha256Upper(input: string): string {
  return createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase();
}

export const altaHuella = (fields: AltaHashFields): string => sha256Upper(altaHashInput(fields));
export const anulacionHuella = (fields: AnulacionHashFields): string => sha256Upper(anulacionHashInput(fields));
