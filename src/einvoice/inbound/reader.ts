import type { OtherValue } from './model.js';
import { kid, kids, type XNode } from '../../xml/xmlTree.js';

/**
 * Reading with a record of what was read: every element whose text the mapping takes is marked,
 * and `leftovers` lists every other element that carries text (or only attributes), so that the
 * rendering can show what the layout has no place for instead of dropping it.
 */
export class Reader {
  private readonly used = new Set<XNode>();

  /**
   * `names` is a syntax binding's table from the element names its syntax table is written in
   * (CII D16B's, ciiTable.ts) to the names its syntax uses (ZUGFeRD 1.0's,
   * src/einvoice/formats/zugferd1/binding.ts); none for CII itself, which then pays no look-up.
   */
  constructor(private readonly names?: Readonly<Record<string, string>>) {}

  /** Marks a subtree as read (an attachment's base64 content, whose size alone is shown). */
  consume(node: XNode | undefined): void {
    if (!node) return;
    this.used.add(node);
    node.children.forEach((child) => this.consume(child));
  }

  node(from: XNode | undefined, ...path: string[]): XNode | undefined {
    return this.at(from, path);
  }

  /** The element at a path (a syntax table's, read as given: no rest array per call). */
  at(from: XNode | undefined, path: readonly string[]): XNode | undefined {
    let here = from;
    const names = this.names;
    for (let index = 0; index < path.length && here; index++) {
      const name = path[index]!;
      here = kid(here, names ? (names[name] ?? name) : name);
    }
    return here;
  }

  all(from: XNode | undefined, name: string): XNode[] {
    return kids(from, this.names ? (this.names[name] ?? name) : name);
  }

  /** Every element at a path: the children named by its last name, of the node at the rest. */
  every(from: XNode | undefined, path: readonly string[]): XNode[] {
    if (path.length === 0) return [];
    let here = from;
    const names = this.names;
    for (let index = 0; index < path.length - 1 && here; index++) {
      const name = path[index]!;
      here = kid(here, names ? (names[name] ?? name) : name);
    }
    return this.all(here, path[path.length - 1]!);
  }

  /** The text at a path (undefined when absent or empty), marking the element read. */
  text(from: XNode | undefined, ...path: string[]): string | undefined {
    return this.textAt(from, path);
  }

  /** `text` for a syntax table's path. */
  textAt(from: XNode | undefined, path: readonly string[]): string | undefined {
    const found = this.at(from, path);
    if (!found) return undefined;
    this.used.add(found);
    return found.text === '' ? undefined : found.text;
  }

  /**
   * Marks the element at a path read when it holds the one value the mapping implies (TypeCode
   * VAT, ChargeIndicator false, …); any other value stays an other value, so it is still shown.
   */
  expect(from: XNode | undefined, expected: string, ...path: string[]): void {
    const found = this.at(from, path);
    if (found && found.text === expected) this.used.add(found);
  }

  attr(from: XNode | undefined, name: string): string | undefined {
    const value = from?.attrs[name];
    return value === undefined || value === '' ? undefined : value;
  }

  /** Every element with text or attributes, no element children, not read: the document's other values. */
  leftovers(root: XNode, btOf: (path: string) => string | null): OtherValue[] {
    const out: OtherValue[] = [];
    const walk = (node: XNode, path: string) => {
      if (node.children.length === 0) {
        if (this.used.has(node)) return;
        const attributes = Object.entries(node.attrs).map(([key, value]) => `${key}=${value}`);
        const value = [node.text, attributes.length > 0 ? `(${attributes.join(', ')})` : '']
          .filter((part) => part !== '')
          .join(' ');
        if (value !== '') out.push({ bt: btOf(path.replace(/\[\d+\]/g, '')), path, value });
        return;
      }
      // A repeated element gets its position (1-based), so a value names its line: …LineItem[3]/….
      const counts = new Map<string, number>();
      for (const child of node.children) counts.set(child.name, (counts.get(child.name) ?? 0) + 1);
      const seen = new Map<string, number>();
      for (const child of node.children) {
        const position = (seen.get(child.name) ?? 0) + 1;
        seen.set(child.name, position);
        const name = (counts.get(child.name) ?? 0) > 1 ? `${child.name}[${position}]` : child.name;
        walk(child, path === '' ? name : `${path}/${name}`);
      }
    };
    walk(root, '');
    return out;
  }
}

/**
 * CII dates: format 102 (YYYYMMDD) to ISO; other formats (610 month, 616 week) and dates no
 * calendar has (20139102, seen in a ZUGFeRD 1.0 corpus file) stay as sent, so they are shown
 * rather than formatted.
 */
export function isoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!match) return value;
  const iso = `${match[1]}-${match[2]}-${match[3]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? iso : value;
}

/** The text at a path with its scheme attribute: "scheme: id". */
export function schemed(
  r: Reader,
  from: XNode | undefined,
  path: readonly string[],
  scheme = 'schemeID',
): string | undefined {
  const found = r.at(from, path);
  return withScheme(r.text(found), r.attr(found, scheme));
}

/** "scheme: id" for identifiers that carry a scheme (0088: 4000000000098). */
export function withScheme(id: string | undefined, scheme: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  return scheme === undefined ? id : `${scheme}: ${id}`;
}
