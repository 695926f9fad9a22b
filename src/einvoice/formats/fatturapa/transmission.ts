import type { Party } from '../../../invoice/schema.js';
import type { FatturaPAFields } from './fields.js';

/**
 * DatiTrasmissione and the file name: who transmits (the seller unless `transmitter` says
 * otherwise), the file's progressive, and the recipient code. The SDI names a file
 * <country><transmitter id>_<progressive>.xml (specifiche tecniche, "nomenclatura del file").
 */
export function transmitterOf(seller: Party, fields: FatturaPAFields): { country: string; id: string } | undefined {
  if (fields.transmitter) return fields.transmitter;
  const vat = seller.vat_id;
  if (vat === undefined || !/^[A-Z]{2}[A-Z0-9]{1,28}$/.test(vat)) return undefined;
  return { country: vat.slice(0, 2), id: vat.slice(2) };
}

/** The seller's VAT number split as IdFiscaleIVA (IdPaese, IdCodice). */
export function vatIdOf(party: Party): { country: string; id: string } | undefined {
  const vat = party.vat_id;
  return vat === undefined ? undefined : { country: vat.slice(0, 2), id: vat.slice(2, 30) };
}

export function recipientCodeOf(buyer: Party, fields: FatturaPAFields): string | undefined {
  if (fields.recipient_code !== undefined) return fields.recipient_code.toUpperCase();
  if (fields.transmission_format === 'FPA12') return undefined;
  return (buyer.country ?? 'IT') === 'IT' ? '0000000' : 'XXXXXXX';
}

/** ProgressivoInvio: the request's, else the last 5 letters or digits of the invoice number (zero-padded). */
export function progressiveOf(invoiceNumber: string, fields: FatturaPAFields): string {
  if (fields.progressive !== undefined) return fields.progressive;
  const alnum = invoiceNumber.replace(/[^A-Za-z0-9]/g, '');
  return alnum.slice(-5).padStart(5, '0');
}

export function fatturaFileName(seller: Party, invoiceNumber: string, fields: FatturaPAFields): string {
  const transmitter = transmitterOf(seller, fields) ?? { country: 'IT', id: 'UNKNOWN' };
  return `${transmitter.country}${transmitter.id}_${progressiveOf(invoiceNumber, fields)}.xml`;
}
