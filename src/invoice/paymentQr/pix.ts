/**
 * A static PIX BR Code (Banco Central do Brasil, "Manual de Padrões para Iniciação do Pix", on
 * EMV QRCPS merchant-presented mode): ID, 2-digit length, value, in this order; CRC16 last.
 */
export interface PixFields {
  key: string;
  /** "123.45"; left out for an open amount. */
  amount?: string | undefined;
  /** Merchant name, at most 25 characters. */
  name: string;
  /** Merchant city, at most 15 characters. */
  city: string;
  /** Transaction id, at most 25 letters and digits; "***" when none. */
  txid?: string | undefined;
}

export const PIX_LIMITS = { name: 25, city: 15, txid: 25, maxAmountMinor: 999_999_999_999n } as const;

function tlv(id: string, value: string): string {
  if (value.length > 99) throw new Error(`pixPayload: field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

export function pixPayload(fields: PixFields): string {
  const body = [
    tlv('00', '01'),
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', fields.key)),
    tlv('52', '0000'),
    tlv('53', '986'),
    fields.amount ? tlv('54', fields.amount) : '',
    tlv('58', 'BR'),
    tlv('59', fields.name),
    tlv('60', fields.city),
    tlv('62', tlv('05', fields.txid || '***')),
    '6304',
  ].join('');
  return body + crc16CcittFalse(body);
}

/** CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over the UTF-8 bytes, 4 upper-case hex digits. */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
