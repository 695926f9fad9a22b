import Handlebars from 'handlebars';

/**
 * What one fill of a customer's page may do: block iterations and partial calls (steps), and the
 * characters they produce (a nested block's output counts again in its parent's). Without it a
 * 100-byte package (three `{{#each lines}}` nested, or partials that each call another a thousand
 * times) filled the 200-line reference invoice with 8 million boxes: 41 s of CPU and 1.4 GB on the
 * free PUT /v1/templates, and one level deeper a crash. Measured (2026-12-06, the reference invoices
 * as they are since the 200-line one got long descriptions): the built-in designs fill the 12
 * reference invoices with at most 412 steps and 159,092 characters (modern, 200 lines); the limits
 * are ≈ 24× and 53× that.
 */
const FILL_LIMITS = { steps: 10_000, chars: 8 * 1024 * 1024 };

/** A fill that went past FILL_LIMITS: refused as the design's fault (template_invalid), never printed. */
export class FillTooLarge extends Error {}

let steps = 0;
let chars = 0;

const step = () => {
  if (++steps > FILL_LIMITS.steps)
    throw new FillTooLarge(
      `the design does too much for one invoice: more than ${FILL_LIMITS.steps} block iterations and partial calls (nested {{#each}} or partials calling partials)`,
    );
};
const produced = (output: string) => {
  chars += output.length;
  if (chars > FILL_LIMITS.chars)
    throw new FillTooLarge(
      `the design fills more than ${FILL_LIMITS.chars / 1024 / 1024} MiB of markup for one invoice`,
    );
  return output;
};

/** Counts a template or block (a partial, an iteration) against the budget of the fill under way. */
function counted<F extends (...args: never[]) => string>(fill: F): F {
  const wrapped = ((...args: Parameters<F>) => {
    step();
    return produced(fill(...args));
  }) as F;
  // Handlebars marks a block program with its depth and block parameters; keep them.
  return Object.assign(wrapped, fill);
}

/**
 * Puts a package page's Handlebars instance on the budget: its `each` counts every iteration and
 * its partials every call (partials fill with the caller's helpers, so a partial's `each` counts
 * too), and each fill of the page starts a budget of its own. Fills are synchronous, so one
 * counter per process is the fill under way.
 */
export function budgetedPage<T>(
  hb: typeof Handlebars,
  page: HandlebarsTemplateDelegate<T>,
): HandlebarsTemplateDelegate<T> {
  const each = Handlebars.helpers.each!;
  hb.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
    return each.call(this, context, { ...options, fn: counted(options.fn) });
  });
  return (context, options) => {
    steps = 0;
    chars = 0;
    return page(context, options);
  };
}

/** A partial counted against the budget of the fill that calls it. */
export const budgetedPartial = (partial: HandlebarsTemplateDelegate): HandlebarsTemplateDelegate => counted(partial);
