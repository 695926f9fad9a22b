/**
 * File names inside the batch ZIP, from the invoice numbers: `invoice-<number><suffix>`, where the
 * number keeps letters, digits, dot, dash and underscore (anything else, path separators included,
 * becomes "_"; at most 64 characters), as the single routes name their downloads. Two numbers that
 * end up as the same name, compared without letter case because Windows and macOS unpack onto
 * case-insensitive file systems ("A/1" and "a_1"), get "-2", "-3", … in item order. (Two items with
 * the same invoice number are refused before this, batchRequest.ts.)
 */
export function fileNamesOf(invoiceNumbers: readonly string[], suffix: string): string[] {
  const taken = new Set<string>();
  return invoiceNumbers.map((number) => {
    const stem = `invoice-${safeStem(number)}`;
    let name = `${stem}${suffix}`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem}-${n}${suffix}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

/** Letters, digits, ".", "-", "_"; runs of anything else become one "_"; no leading dot; never empty. */
export function safeStem(invoiceNumber: string): string {
  const stem = invoiceNumber
    .normalize('NFKC')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 64);
  return stem === '' ? 'unnamed' : stem;
}
