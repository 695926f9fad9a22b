import { decimalFromNumber, decimalToString, type Decimal } from '../../invoice/decimal.js';
import { LIMITS } from '../../invoice/schema.js';
import { addHours, ZERO_HOURS } from './hours.js';
import type { GROUP_BY } from './schema.js';

/**
 * Groups billed entries into invoice lines. A line has one rate, so entries at different rates
 * never share a line.
 *   description: one line per description and rate, ordered by the group's earliest date
 *   date:        one line per day and rate, "2026-11-03: Design review; Workshop", by day
 *   none:        one line per entry, "2026-11-03: Design review", in the order sent
 * Ties keep the order of the entries as sent.
 */
export interface BilledEntry {
  index: number;
  date: string;
  description: string;
  rate: number;
  hoursSent: Decimal;
  hoursBilled: Decimal;
}

export interface EntryGroup {
  description: string;
  date: string | null;
  rate: number;
  entries: number[];
  hoursSent: Decimal;
  hoursBilled: Decimal;
}

type GroupBy = (typeof GROUP_BY)[number];

interface Collecting {
  group: EntryGroup;
  firstDate: string;
  firstIndex: number;
  descriptions: string[];
}

export function groupEntries(entries: readonly BilledEntry[], groupBy: GroupBy): EntryGroup[] {
  const groups = new Map<string, Collecting>();
  for (const entry of entries) {
    const rateKey = decimalToString(decimalFromNumber(entry.rate));
    const key = JSON.stringify(
      groupBy === 'description'
        ? [entry.description, rateKey]
        : groupBy === 'date'
          ? [entry.date, rateKey]
          : [entry.index],
    );
    let collecting = groups.get(key);
    if (!collecting) {
      collecting = {
        group: {
          description: '',
          date: groupBy === 'description' ? null : entry.date,
          rate: entry.rate,
          entries: [],
          hoursSent: ZERO_HOURS,
          hoursBilled: ZERO_HOURS,
        },
        firstDate: entry.date,
        firstIndex: entry.index,
        descriptions: [],
      };
      groups.set(key, collecting);
    }
    const { group } = collecting;
    group.entries.push(entry.index);
    group.hoursSent = addHours(group.hoursSent, entry.hoursSent);
    group.hoursBilled = addHours(group.hoursBilled, entry.hoursBilled);
    if (entry.date < collecting.firstDate) collecting.firstDate = entry.date;
    if (!collecting.descriptions.includes(entry.description)) collecting.descriptions.push(entry.description);
  }

  const ordered = [...groups.values()];
  if (groupBy !== 'none') {
    ordered.sort((a, b) =>
      a.firstDate < b.firstDate ? -1 : a.firstDate > b.firstDate ? 1 : a.firstIndex - b.firstIndex,
    );
  }
  return ordered.map(({ group, descriptions }) => ({
    ...group,
    description:
      group.date === null
        ? descriptions.join('; ')
        : truncate(`${group.date}: ${descriptions.join('; ')}`, LIMITS.description),
  }));
}

/** Cut at a code point (never inside an emoji) and mark the cut; the summary keeps every entry. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let kept = '';
  for (const character of text) {
    if (kept.length + character.length > max - 1) break;
    kept += character;
  }
  return `${kept}…`;
}
