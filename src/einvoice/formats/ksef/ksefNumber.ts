/**
 * The KSeF number KSeF assigns to an accepted invoice: `NIP-YYYYMMDD-XXXXXXXXXXXX-CC` (35
 * characters), the seller's NIP, the date of acceptance, 12 upper-case hex digits and a CRC-8
 * (polynomial 0x07, initial value 0) of the first 32 characters in upper-case hex. FA(3)'s
 * TNumerKSeF pattern also admits a dash inside the technical part (36 characters), which is not
 * part of the checksummed text.
 */
const KSEF_NUMBER = /^(\d{10})-(\d{4})(\d{2})(\d{2})-([0-9A-F]{6})-?([0-9A-F]{6})-([0-9A-F]{2})$/;

export function crc8(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'ascii')) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  }
  return crc;
}

export type KsefNumberCheck =
  { valid: true; nip: string; canonical: string } | { valid: false; reason: 'malformed' | 'checksum' };

/** The number's shape and checksum; `canonical` is the 35-character form. */
export function checkKsefNumber(value: string): KsefNumberCheck {
  const match = KSEF_NUMBER.exec(value);
  if (!match) return { valid: false, reason: 'malformed' };
  const [, nip, year, month, day, first, second, checksum] = match as unknown as string[];
  const date = new Date(`${year}-${month}-${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== `${year}-${month}-${day}`)
    return { valid: false, reason: 'malformed' };
  const data = `${nip}-${year}${month}${day}-${first}${second}`;
  const expected = crc8(data).toString(16).toUpperCase().padStart(2, '0');
  if (expected !== checksum) return { valid: false, reason: 'checksum' };
  return { valid: true, nip: nip!, canonical: `${data}-${checksum}` };
}

/** A KSeF number with its checksum computed: for tests and examples that need a valid one. */
export function withKsefChecksum(data32: string): string {
  return `${data32}-${crc8(data32).toString(16).toUpperCase().padStart(2, '0')}`;
}
