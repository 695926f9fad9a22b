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
 */
export interface FillTrace {
  /** `place:fn` or `place:inverse`, for each branch filled. */
  branches: Set<string>;
  /** For each block's place, the most bodies one call of it filled. */
  iterations: Map<string, number>;
}

interface Frame {
  place: string;
  /** Partial calls so far in this body, by name (made at the first). */
  calls?: Map<string, number>;
}

let trace: FillTrace | undefined;
let frames: Frame[] = [];
const top = () => frames[frames.length - 1]!;

/** Runs a fill and answers what it produced with its trace. */
export function traceFill<T>(fill: () => T): { result: T; trace: FillTrace } {
  const under: FillTrace = { branches: new Set(), iterations: new Map() };
  trace = under;
  frames = [{ place: 'html' }];
  try {
    return { result: fill(), trace: under };
  } finally {
    trace = undefined;
    frames = [];
  }
}

/** Runs `body` as a frame of its own named `place` (a block's body or a partial's fill). */
function inFrame<T>(place: string, body: () => T): T {
  frames.push({ place });
  try {
    return body();
  } finally {
    frames.pop();
  }
}

/** A partial traced as a frame of its own: its name and which call of it in its caller's body. */
export function tracedPartial(name: string, partial: HandlebarsTemplateDelegate): HandlebarsTemplateDelegate {
  const wrapped = ((context: unknown, options?: Handlebars.RuntimeOptions) => {
    if (!trace) return partial(context, options);
    const caller = top();
    const calls = (caller.calls ??= new Map());
    const nth = calls.get(name) ?? 0;
    calls.set(name, nth + 1);
    return inFrame(`${caller.place}>${name}#${nth}`, () => partial(context, options));
  }) as HandlebarsTemplateDelegate;
  // Handlebars reads a compiled partial's own properties; keep them.
  return Object.assign(wrapped, partial);
}

type Program = ((...args: unknown[]) => string) & Record<string, unknown>;

/**
 * Traces every block helper of a page's Handlebars instance (the built-in ones: a package's
 * templates know no others): each call's body and `{{else}}` record their branch when filled.
 * Register it last, over the helpers the fill budget wraps (fillBudget.ts).
 */
export function traceBlocks(hb: typeof Handlebars): void {
  for (const [name, helper] of Object.entries(hb.helpers) as [string, (...args: unknown[]) => unknown][]) {
    hb.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      const options = args[args.length - 1] as Handlebars.HelperOptions & {
        loc?: { start: { line: number; column: number } };
      };
      if (!trace || typeof options?.fn !== 'function' || !options.loc) return helper.apply(this, args);
      const under = trace;
      const place = `${top().place}@${options.loc.start.line}:${options.loc.start.column}`;
      let bodies = 0;
      const branch = (program: Program | undefined, way: 'fn' | 'inverse') => {
        if (typeof program !== 'function') return program;
        const taken = `${place}:${way}`;
        const wrapped = (context: unknown, runtime: unknown) => {
          under.branches.add(taken);
          if (way === 'fn') bodies++;
          frames.push({ place: taken });
          try {
            return program(context, runtime);
          } finally {
            frames.pop();
          }
        };
        return Object.assign(wrapped, program);
      };
      args[args.length - 1] = {
        ...options,
        fn: branch(options.fn as Program, 'fn'),
        inverse: branch(options.inverse as Program | undefined, 'inverse'),
      };
      try {
        return helper.apply(this, args);
      } finally {
        if (bodies > (under.iterations.get(place) ?? 0)) under.iterations.set(place, bodies);
      }
    });
  }
}
