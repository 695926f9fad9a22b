import type Handlebars from 'handlebars';

/**
 * Which way each block of a customer's page went in one fill: the blocks of the page and of its
 * partials (`{{#if}}`, `{{#unless}}`, `{{#each}}`, `{{#with}}`, sections) that filled their body or
 * their `{{else}}`, and how many times one call filled a body (an `{{#each}}`'s items). The
 * print-time check (designCoverage.ts) compares an invoice's trace with the reference invoices'
 * traces: a branch no reference invoice took is markup and styling the content contract never saw.
 *
 * A block is named by where it is: the chain of partial calls above it (each partial with its
 * occurrence in its caller's body, so the seller's and the buyer's calls of one partial differ;
 * not counting across an `{{#each}}`'s items, so row 3 and row 57 are the same place), then its
 * line and column in its file, then the branch. Fills are synchronous: one trace per process is
 * the fill under way, and none outside traceFill (the wrappers then only pass the call on).
 *
 * Every print of a stored design is traced, so the names are made once per page (a tree of
 * places, FillPlaces, kept with the compiled page) and a fill only looks them up: naming them anew
 * on each call cost ≈ 3 ms of a 200-line fill's 4 (measured 2026-12-06).
 */
export interface FillTrace {
  /** `place:fn` or `place:inverse`, for each branch filled. */
  branches: Set<string>;
  /** For each block's place, the most bodies one call of it filled. */
  iterations: Map<string, number>;
}

/** A body (the page's, a partial call's, a block's branch): its name and the places under it. */
class Body {
  private readonly blocks = new Map<number, Block>();
  private readonly partials = new Map<string, Body[]>();
  constructor(readonly name: string) {}

  block(line: number, column: number): Block {
    const key = line * 0x10000 + column;
    let found = this.blocks.get(key);
    if (!found) this.blocks.set(key, (found = new Block(`${this.name}@${line}:${column}`)));
    return found;
  }

  /** The `nth` call of partial `name` in this body. */
  partial(name: string, nth: number): Body {
    let calls = this.partials.get(name);
    if (!calls) this.partials.set(name, (calls = []));
    return (calls[nth] ??= new Body(`${this.name}>${name}#${nth}`));
  }
}

class Block {
  readonly fn: Body;
  readonly inverse: Body;
  constructor(readonly name: string) {
    this.fn = new Body(`${name}:fn`);
    this.inverse = new Body(`${name}:inverse`);
  }
}

/** The places of one compiled page (its page body is `html`), shared by its partials and helpers. */
export class FillPlaces {
  readonly root = new Body('html');
}

let trace: FillTrace | undefined;
/** The bodies being filled, innermost last, and the partial calls each has made so far (by name, made at the first). */
const bodies: Body[] = [];
const calls: (Map<string, number> | undefined)[] = [];

/** The body being filled: the page's own is entered at the first traced call of a fill. */
function current(places: FillPlaces): Body {
  if (bodies.length === 0) enter(places.root);
  return bodies[bodies.length - 1]!;
}

function enter(body: Body): void {
  bodies.push(body);
  calls.push(undefined);
}
function leave(): void {
  bodies.pop();
  calls.pop();
}

/** Runs a fill and answers what it produced with its trace. */
export function traceFill<T>(fill: () => T): { result: T; trace: FillTrace } {
  const under: FillTrace = { branches: new Set(), iterations: new Map() };
  trace = under;
  bodies.length = 0;
  calls.length = 0;
  try {
    return { result: fill(), trace: under };
  } finally {
    trace = undefined;
    bodies.length = 0;
    calls.length = 0;
  }
}

/** A partial traced as a body of its own: its name and which call of it in its caller's body. */
export function tracedPartial(
  places: FillPlaces,
  name: string,
  partial: HandlebarsTemplateDelegate,
): HandlebarsTemplateDelegate {
  const wrapped = ((context: unknown, options?: Handlebars.RuntimeOptions) => {
    if (!trace) return partial(context, options);
    const caller = current(places);
    const counts = (calls[calls.length - 1] ??= new Map());
    const nth = counts.get(name) ?? 0;
    counts.set(name, nth + 1);
    enter(caller.partial(name, nth));
    try {
      return partial(context, options);
    } finally {
      leave();
    }
  }) as HandlebarsTemplateDelegate;
  // Handlebars reads a compiled partial's own properties; keep them.
  return Object.assign(wrapped, partial);
}

type Program = ((context: unknown, runtime: unknown) => string) & Record<string, unknown>;

/** `program` filling `body` as the branch `taken`; `filled` counts the bodies (an {{#each}}'s items). */
function branchOf(under: FillTrace, program: Program, body: Body, filled?: { bodies: number }): Program {
  // Returned as is: a closure named by a const costs a defineProperty per call under tsx
  // (keepNames), and the properties Handlebars writes on a program (program, depth, blockParams)
  // are read by nothing a block helper calls.
  return ((context: unknown, runtime: unknown) => {
    under.branches.add(body.name);
    if (filled) filled.bodies++;
    enter(body);
    try {
      return program(context, runtime);
    } finally {
      leave();
    }
  }) as Program;
}

/**
 * Traces every block helper of a page's Handlebars instance (the built-in ones: a package's
 * templates know no others): each call's body and `{{else}}` record their branch when filled.
 * Register it last, over the helpers the fill budget wraps (fillBudget.ts).
 */
export function traceBlocks(hb: typeof Handlebars, places: FillPlaces): void {
  for (const [name, helper] of Object.entries(hb.helpers) as [string, (...args: unknown[]) => unknown][]) {
    hb.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      const options = args[args.length - 1] as Handlebars.HelperOptions & {
        loc?: { start: { line: number; column: number } };
      };
      if (!trace || typeof options?.fn !== 'function' || !options.loc) return helper.apply(this, args);
      const under = trace;
      const block = current(places).block(options.loc.start.line, options.loc.start.column);
      const filled = { bodies: 0 };
      // The options object is this call's own (Handlebars writes one per call): changed in place.
      options.fn = branchOf(under, options.fn as Program, block.fn, filled);
      if (typeof options.inverse === 'function')
        options.inverse = branchOf(under, options.inverse as Program, block.inverse);
      try {
        return helper.apply(this, args);
      } finally {
        if (filled.bodies > (under.iterations.get(block.name) ?? 0)) under.iterations.set(block.name, filled.bodies);
      }
    });
  }
}
