import type { InboundInvoice } from './model.js';

/** A value the reader left to "other values" (a format's own element), by its path, exact or a pattern; trimmed. */
export function otherValue(document: InboundInvoice, path: string | RegExp): string | undefined {
  const matches = (at: string) => (typeof path === 'string' ? at === path : path.test(at));
  return document.otherValues.find((value) => matches(value.path))?.value.trim();
}
