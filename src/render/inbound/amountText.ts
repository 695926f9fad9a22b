/**
 * An amount as the document states it, grouped in the reader's locale: as many decimals as the
 * document wrote (at least two), never rounded, never converted through a currency's minor units.
 */
export function formatAmount(text: string, tag: string): string {
  const match = /^\s*(-?)(\d*)(?:\.(\d*))?\s*$/.exec(text);
  if (!match) return text;
  const decimals = Math.max(2, (match[3] ?? '').length);
  const whole = BigInt(match[2] || '0');
  const fraction = (match[3] ?? '').padEnd(decimals, '0');
  const { separator, grouped, digit } = formattersOf(tag);
  // The fraction's digits in the locale's numbering system too (Arabic-Indic digits in ar).
  const localFraction = [...fraction].map((char) => digit[Number(char)]).join('');
  return `${match[1] === '-' && (whole !== 0n || /[1-9]/.test(fraction)) ? '−' : ''}${grouped.format(whole)}${separator}${localFraction}`;
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
