// Template packages that keep every fact in the page's text but hide some from the reader
// (test/reliability/templates-hostile.test.ts): the content contract must refuse each with
// hidden_fact and the reason (src/render/factsOnPage.ts).
import { builtinPackage } from '../../../src/render/builtinPackages.js';

/** A box with an opaque background laid over the foot of the line table, totals included. */
const COVER = {
  css: '.items { position: relative; }\n.cover { position: absolute; left: 0; right: 0; bottom: 0; height: 40mm; background: #fff; }',
  partials: { totals: `${builtinPackage('classic').partials.totals!}\n<tr><td><div class="cover"></div></td></tr>` },
};

/** Each package with the reason its hidden totals must be refused with. */
export const hidingPackages: { name: string; pkg: object; reason: string }[] = [
  { name: 'display: none', pkg: { css: '.totals__row { display: none; }' }, reason: 'display_none' },
  {
    name: 'display: none in @media print',
    pkg: { css: '@media print { .totals__row { display: none; } }' },
    reason: 'display_none',
  },
  { name: 'visibility: hidden', pkg: { css: '.totals__row { visibility: hidden; }' }, reason: 'visibility_hidden' },
  { name: 'opacity: 0', pkg: { css: '.totals__row { opacity: 0; }' }, reason: 'opacity_zero' },
  {
    name: 'opacity 0.3 × 0.2 along the ancestors',
    pkg: { css: '.items { opacity: 0.3; } .totals__row { opacity: 0.2; }' },
    reason: 'opacity_zero',
  },
  { name: 'transparent colour', pkg: { css: '.totals__row { color: rgba(0, 0, 0, 0); }' }, reason: 'transparent_text' },
  {
    name: '-webkit-text-fill-color: transparent',
    pkg: { css: '.totals__row { -webkit-text-fill-color: transparent; }' },
    reason: 'transparent_text',
  },
  { name: 'white on white paper', pkg: { css: '.totals__row { color: #fff; }' }, reason: 'same_colour_as_background' },
  {
    name: 'text the colour of its own background',
    pkg: { css: '.totals__row td, .totals__row th { color: #1d4ed8; background: #1d4ed8; }' },
    reason: 'same_colour_as_background',
  },
  { name: 'font-size 4pt', pkg: { css: '.totals__row { font-size: 4pt; }' }, reason: 'too_small' },
  {
    name: 'transform: scale(0.1)',
    pkg: { css: '.totals__row td, .totals__row th { transform: scale(0.1); }' },
    reason: 'too_small',
  },
  {
    name: 'positioned off the page',
    pkg: { css: '.totals__row td, .totals__row th { position: relative; left: -300mm; }' },
    reason: 'off_page',
  },
  {
    name: 'overflow hidden in a box of no height',
    pkg: { css: '.totals__row td, .totals__row th { display: block; height: 0; padding: 0; overflow: hidden; }' },
    reason: 'clipped',
  },
  { name: 'clip-path', pkg: { css: '.totals__row td, .totals__row th { clip-path: inset(50%); }' }, reason: 'clipped' },
  { name: 'an opaque box over the totals', pkg: COVER, reason: 'covered' },
];
