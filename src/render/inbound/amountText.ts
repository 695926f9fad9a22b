/**
 * An amount as the document states it, grouped in the reader's locale: as many decimals as the
 * document wrote (at least `minDecimals`, the currency's own: 2, 0 for JPY, 3 for KWD), never
 * rounded, never converted through a currency's minor units.
 */
export function formatAmount(text: string, tag: string, minDecimals = 2): string {
  const match = /^\s*(-?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return text;
  const decimals = Math.max(minDecimals, (match[3] ?? '').length);
  const whole = BigInt(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(decimals, '0');
  const { separator, grouped, digit } = formattersOf(tag);
  // The fraction's digits in the locale's numbering system too (Arabic-Indic digits in ar).
  const localFraction = [...fraction].map((char) => digit[Number(char)]).join('');
  const sign = match[1] === '-' && (whole !== 0n || /[1-9]/.test(fraction)) ? '−' : '';
  return `${sign}${grouped.format(whole)}${fraction === '' ? '' : `${separator}${localFraction}`}`;
}

/** Intl formatters are costly to build (a 200-line invoice formats 600 amounts): one set per tag. */
const FORMATTERS = new Map<string, { separator: string; grouped: Intl.NumberFormat; digit: string[] }>();

function formattersOf(tag: string) {
  let formatters = FORMATTERS.get(tag);
  if (!formatters) {
    const sample = new Intl.NumberFormat(tag, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).formatToParts(
      1.5,
    );
    const single = new Intl.NumberFormat(tag, { useGrouping: false });
    formatters = {
      separator: sample.find((part) => part.type === 'decimal')?.value ?? '.',
      grouped: new Intl.NumberFormat(tag, { useGrouping: true, maximumFractionDigits: 0 }),
      digit: Array.from({ length: 10 }, (_, value) => single.format(value)),
    };
    FORMATTERS.set(tag, formatters);
  }
  return formatters;
}

/**
 * A figure the service computed (the recomputed totals, src/einvoice/inbound/inboundTotals.ts, at
 * two decimals) in the currency's own decimals: zeros past them are dropped ("26000.00" JPY →
 * "26000"), any other digit is kept, so nothing is rounded away.
 */
export function trimComputed(text: string, digits: number): string {
  const match = /^(-?\d*)\.(\d*?)0*$/.exec(text.trim());
  if (!match) return text;
  const fraction = (match[2] ?? '').padEnd(digits, '0');
  return fraction === '' ? match[1]! : `${match[1]}.${fraction}`;
}
