import { allocateByLargestRemainder } from '../../invoice/vatGroups.js';
import { microsToText, parseDecimal } from './decimalText.js';
import type { InAllowanceCharge, InboundInvoice, InBreakdown, InLine } from './model.js';

/**
 * What the JSON invoice cannot hold as the document states it, taken into a line it can, so that
 * every VAT group keeps its amounts when the document is re-issued:
 * - a line with a negative net amount (a return, a rebate) is taken into a line of the same tax
 *   category and rate, as the JSON invoice has no negative lines;
 * - an allowance on one tax category and rate of several is taken into a line of that category and
 *   rate, as the JSON discount is shared among all of them.
 * What finds no line with room for it stays as it was: a negative line is then refused, an
 * allowance goes to the discount, and inspect's reissue says which amounts would change.
 */
export interface TakenIntoLines {
  /** Per line: the amount taken off its net amount (BT-131). */
  less: Map<InLine, bigint>;
  /** The negative lines taken into another line. */
  taken: Set<InLine>;
  /** The allowances left for the JSON discount. */
  discount: InAllowanceCharge[];
  folded: string[];
}

const groupOf = (category: string | undefined, rate: string | undefined) =>
  `${category ?? ''}/${Number(parseDecimal(rate) ?? 0n)}`;

export function takeIntoLines(source: InboundInvoice, digits: number): TakenIntoLines {
  const less = new Map<InLine, bigint>();
  const taken = new Set<InLine>();
  const folded: string[] = [];
  const net = (line: InLine) => parseDecimal(line.net) ?? 0n;
  const into = (group: string, amount: bigint): InLine | undefined => {
    const target = source.lines.find(
      (line) =>
        !taken.has(line) &&
        net(line) > 0n &&
        groupOf(line.category, line.rate) === group &&
        net(line) - (less.get(line) ?? 0n) >= amount,
    );
    if (target) less.set(target, (less.get(target) ?? 0n) + amount);
    return target;
  };
  for (const line of source.lines) {
    if (net(line) >= 0n) continue;
    const target = into(groupOf(line.category, line.rate), -net(line));
    if (!target) continue;
    taken.add(line);
    folded.push(
      `line ${line.id} (${microsToText(net(line), digits)}) was taken into line ${target.id} of the same tax category and rate, as the JSON invoice has no negative lines`,
    );
  }
  const charges = source.allowances.filter((item) => item.charge);
  const groups = new Set([
    ...source.lines.filter((line) => !taken.has(line)).map((line) => groupOf(line.category, line.rate)),
    ...charges.map((charge) => groupOf(charge.category, charge.rate)),
  ]);
  const allowances = source.allowances.filter((item) => !item.charge);
  // The JSON discount shares itself among the rates as this service writes it: where that gives the document's
  // allowance of each rate, the discount holds them as they are (a document this service wrote, for one).
  if (groups.size <= 1 || sharedAsTheDiscount(source, { taken, less, allowances, charges }, digits))
    return { less, taken, discount: allowances, folded };
  const discount: InAllowanceCharge[] = [];
  for (const allowance of allowances) {
    const amount = parseDecimal(allowance.amount) ?? 0n;
    const target =
      allowance.category !== undefined && amount > 0n
        ? into(groupOf(allowance.category, allowance.rate), amount)
        : undefined;
    if (target)
      folded.push(
        `the allowance of ${microsToText(amount, digits)}${allowance.reason ? ` (${allowance.reason})` : ''} on ${allowance.category} ${allowance.rate ?? 0} % was taken into line ${target.id}, as the JSON discount is shared among all rates`,
      );
    else discount.push(allowance);
  }
  return { less, taken, discount, folded };
}

/** Whether the JSON discount, shared by largest remainder over the groups' nets (src/invoice/vatGroups.ts), gives each group its allowances. */
function sharedAsTheDiscount(
  source: InboundInvoice,
  kept: {
    taken: Set<InLine>;
    less: Map<InLine, bigint>;
    allowances: InAllowanceCharge[];
    charges: InAllowanceCharge[];
  },
  digits: number,
): boolean {
  const minor = (value: bigint) => value / 10n ** BigInt(6 - digits);
  const nets = new Map<string, bigint>();
  const add = (group: string, value: bigint) => nets.set(group, (nets.get(group) ?? 0n) + value);
  for (const line of source.lines)
    if (!kept.taken.has(line))
      add(groupOf(line.category, line.rate), (parseDecimal(line.net) ?? 0n) - (kept.less.get(line) ?? 0n));
  for (const charge of kept.charges) add(groupOf(charge.category, charge.rate), parseDecimal(charge.amount) ?? 0n);
  const stated = new Map<string, bigint>();
  for (const allowance of kept.allowances) {
    const group = groupOf(allowance.category, allowance.rate);
    if (allowance.category === undefined || !nets.has(group)) return false;
    stated.set(group, (stated.get(group) ?? 0n) + minor(parseDecimal(allowance.amount) ?? 0n));
  }
  const total = [...stated.values()].reduce((sum, value) => sum + value, 0n);
  const shares = allocateByLargestRemainder(total, [...nets.values()].map(minor));
  return [...nets.keys()].every((group, at) => shares[at] === (stated.get(group) ?? 0n));
}

/**
 * The document's item behind each line of the JSON invoice, in order (its lines not taken into
 * another, then its document-level charges; a document without lines: its VAT groups), so that a
 * finding on `line_items[i]` can look at what the document states there.
 */
export function jsonLineSources(source: InboundInvoice): LineSource[] {
  // Asked by several hooks of one inspect, and per finding: worked out once per document.
  let sources = SOURCES.get(source);
  if (sources === undefined) {
    const taken = source.lines.length === 0 ? undefined : takeIntoLines(source, 2).taken;
    sources = taken
      ? [...source.lines.filter((line) => !taken.has(line)), ...source.allowances.filter((item) => item.charge)]
      : source.breakdown;
    SOURCES.set(source, sources);
  }
  return sources;
}

type LineSource = InLine | InAllowanceCharge | InBreakdown;
const SOURCES = new WeakMap<InboundInvoice, LineSource[]>();
