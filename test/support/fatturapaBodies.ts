/**
 * A FatturaPA file of several documents built from one of the service's own single-body files:
 * its body repeated, each copy with its own Numero and, where asked, another stated
 * ImportoTotaleDocumento (a tampered copy whose total its lines no longer give).
 */
export function withBodies(xml: string | Uint8Array, bodies: { number: string; statedTotal?: string }[]): string {
  const text = typeof xml === 'string' ? xml : Buffer.from(xml).toString('utf8');
  const start = text.indexOf('<FatturaElettronicaBody>');
  const closing = '</FatturaElettronicaBody>';
  const end = text.indexOf(closing) + closing.length;
  if (start < 0 || end < start) throw new Error('not a FatturaPA with a body');
  const body = text.slice(start, end);
  const copies = bodies.map(({ number, statedTotal }) => {
    const numbered = body.replace(/<Numero>[^<]*<\/Numero>/, `<Numero>${number}</Numero>`);
    return statedTotal === undefined
      ? numbered
      : numbered.replace(/<ImportoTotaleDocumento>[^<]*</, `<ImportoTotaleDocumento>${statedTotal}<`);
  });
  return `${text.slice(0, start)}${copies.join('\n  ')}${text.slice(end)}`;
}
