/**
 * NPCI UPI deep link (UPI Linking Specification): upi://pay with the payee address (pa), name
 * (pn), amount (am), currency (cu, INR only) and a note (tn), each value percent-encoded.
 */
export interface UpiFields {
  vpa: string;
  name: string;
  /** "123.45". */
  amount: string;
  note?: string | undefined;
}

export function upiPayload(fields: UpiFields): string {
  const params: [string, string][] = [
    ['pa', fields.vpa],
    ['pn', fields.name],
    ['am', fields.amount],
    ['cu', 'INR'],
  ];
  if (fields.note) params.push(['tn', fields.note]);
  // encodeURIComponent, not URLSearchParams: that writes a space as "+", which UPI apps show literally.
  return `upi://pay?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}
