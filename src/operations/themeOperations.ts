import { ThemeSchema, type Theme } from '../invoice/designFields.js';
import { parseTheme, putTheme } from '../themes/storedThemes.js';
import { THEME_TTL_SECONDS, type ThemeStore } from '../themes/themeStore.js';
import type { Operation } from './operation.js';

const EXAMPLE_THEME: Theme = {
  colors: { accent: '#7a2e8f', tint: '#f6eef8' },
  font: 'Noto Serif',
  density: 'compact',
  logo_placement: 'end',
  show: { line_numbers: false },
  labels: { invoice: 'Tax invoice' },
};

/**
 * PUT /v1/themes: the row only; the work is putTheme (src/themes/storedThemes.ts). Free,
 * with `handle` rather than `compute`: its store write is not pure CPU. The body is still parsed and
 * validated on the compute pool, as every operation's.
 */
export function themeOperations(store: ThemeStore | undefined): Operation[] {
  const put: Operation<Theme> = {
    method: 'PUT',
    path: '/v1/themes',
    operationId: 'v1_themes_put',
    summary: 'Store a theme and get its id (free)',
    description: `Stores a theme (colours, font, logo placement, density, optional blocks, label overrides) and answers its id, "sha256:" and the SHA-256 of its canonical JSON (keys sorted, no white space): the same theme always has the same id. Any invoice may then say "theme": "<id>". A stored theme expires ${THEME_TTL_SECONDS / 86400} days after it was last put; put it again to renew it. An invalid theme is a 400 listing every problem with its path.`,
    tag: 'Invoices',
    request: { schema: ThemeSchema, example: EXAMPLE_THEME, parse: parseTheme },
    response: {
      contentType: 'application/json',
      description: 'The theme id and how long it is kept.',
      example: { id: 'sha256:…', expires_in_seconds: THEME_TTL_SECONDS },
    },
    handle: async (theme) => {
      // The compute workers build the list without a store; this work only runs on the main thread.
      if (!store) throw new Error('v1_themes_put has no theme store');
      return { body: await putTheme(store, theme) };
    },
  };
  return [put];
}
