// Template packages the upload checks must refuse (test/reliability/templates-hostile.test.ts).

/**
 * Packages refused at upload, each with the issue it must carry: [path, code, line?]. The canary's
 * origin is in every URL, so a check that let one through to the page would show as a connection.
 */
export const refusedPackages = (
  origin: string,
): { name: string; pkg: unknown; expect: [string, string, number?][] }[] => [
  {
    name: '<script>',
    pkg: { partials: { notes: '<p>x</p>\n<script>fetch("' + origin + '/s")</script>' } },
    expect: [['partials.notes', 'script', 2]],
  },
  {
    name: 'script src',
    pkg: { partials: { notes: `<script src="${origin}/s"></script>` } },
    expect: [['partials.notes', 'script', 1]],
  },
  {
    name: 'onload=',
    pkg: { partials: { notes: '<div>\n<svg onload="fetch(1)"></svg></div>' } },
    expect: [['partials.notes', 'event_handler', 2]],
  },
  {
    name: 'onerror= in upper case',
    pkg: { partials: { notes: '<img src="#x" ONERROR="x()">' } },
    expect: [['partials.notes', 'event_handler', 1]],
  },
  {
    name: 'javascript: href',
    pkg: { partials: { notes: '<a href="java\tscript:alert(1)">x</a>' } },
    expect: [['partials.notes', 'javascript_url', 1]],
  },
  {
    name: 'file: src',
    pkg: { partials: { notes: '<img src="file:///etc/passwd">' } },
    expect: [['partials.notes', 'file_url', 1]],
  },
  {
    name: 'external img src',
    pkg: { partials: { notes: `<img src="${origin}/img">` } },
    expect: [['partials.notes', 'external_url', 1]],
  },
  {
    name: 'external a href',
    pkg: { partials: { notes: `<a href="${origin}/a">x</a>` } },
    expect: [['partials.notes', 'external_url', 1]],
  },
  {
    name: 'a field in href',
    pkg: { partials: { notes: '<a href="{{notes.text}}">x</a>' } },
    expect: [['partials.notes', 'external_url', 1]],
  },
  {
    name: 'SVG use with an external reference',
    pkg: { partials: { notes: `<svg><use href="${origin}/u.svg#a"></use></svg>` } },
    expect: [['partials.notes', 'external_url', 1]],
  },
  {
    name: 'SVG image',
    pkg: { partials: { notes: `<svg><image href="${origin}/i.png"></image></svg>` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: 'CSS url()',
    pkg: { css: `.totals__row {\n  background: url(${origin}/bg.png);\n}` },
    expect: [['css', 'css_url', 2]],
  },
  {
    name: 'CSS url() in a style attribute',
    pkg: { partials: { notes: `<p style="background-image: url('${origin}/st')">x</p>` } },
    expect: [['partials.notes', 'css_url', 1]],
  },
  {
    name: 'CSS image-set()',
    pkg: { css: `b { background-image: image-set("${origin}/set.png" 1x); }` },
    expect: [['css', 'css_url', 1]],
  },
  {
    name: '@import',
    pkg: { css: `p { color: red; }\n@import "${origin}/x.css";` },
    expect: [['css', 'css_import', 2]],
  },
  {
    name: '@font-face src',
    pkg: { css: `@font-face { font-family: p; src: url(${origin}/f.woff2); }\nbody { font-family: p; }` },
    expect: [
      ['css', 'css_font_face', 1],
      ['css', 'css_url', 1],
    ],
  },
  {
    name: '</style> in CSS',
    pkg: { css: 'p { color: red; }</style><img src="x">' },
    expect: [['css', 'css_syntax', 1]],
  },
  {
    name: '<iframe>',
    pkg: { partials: { notes: `<iframe src="${origin}/f"></iframe>` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: 'iframe srcdoc',
    pkg: { partials: { notes: '<div srcdoc="<img src=x>">x</div>' } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: '<object>',
    pkg: { partials: { notes: `<object data="${origin}/o"></object>` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: '<embed>',
    pkg: { partials: { notes: `<embed src="${origin}/e">` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: '<link>',
    pkg: { partials: { notes: `<link rel="stylesheet" href="${origin}/l.css">` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: '<meta http-equiv=refresh>',
    pkg: { partials: { notes: `<meta http-equiv="refresh" content="0;url=${origin}/r">` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: '<base>',
    pkg: { partials: { notes: `<base href="${origin}/">` } },
    expect: [['partials.notes', 'forbidden_element', 1]],
  },
  {
    name: 'a <style> element in a partial',
    pkg: { partials: { notes: `<style>@import "${origin}/p.css";</style>` } },
    expect: [['partials.notes', 'style_element', 1]],
  },
  {
    name: 'an unknown helper',
    pkg: { partials: { notes: '<p>{{lookup seller "name"}}</p>' } },
    expect: [['partials.notes', 'unknown_helper', 1]],
  },
  {
    name: 'a helper call of a field',
    pkg: { partials: { notes: '<p>{{notes.text "x"}}</p>' } },
    expect: [['partials.notes', 'unknown_helper', 1]],
  },
  {
    name: 'an unknown partial',
    pkg: { partials: { notes: '<p>\n{{> no-such-partial}}</p>' } },
    expect: [['partials.notes', 'unknown_partial', 2]],
  },
  {
    name: 'a dynamic partial',
    pkg: { partials: { notes: '{{> (notes.text)}}' } },
    expect: [['partials.notes', 'unknown_partial', 1]],
  },
  {
    name: 'an inline partial (decorator)',
    pkg: { partials: { notes: '{{#*inline "x"}}y{{/inline}}' } },
    expect: [['partials.notes', 'decorator', 1]],
  },
  {
    name: 'a partial not of the service',
    pkg: { partials: { evil: '<p>x</p>' } },
    expect: [['partials.evil', 'unknown_partial']],
  },
  {
    name: '{{{triple-stash}}} of request text',
    pkg: { partials: { notes: '<p>{{{notes.text}}}</p>' } },
    expect: [['partials.notes', 'triple_stash', 1]],
  },
  {
    name: '{{& }} of request text',
    pkg: { partials: { notes: '<p>{{& notes.text}}</p>' } },
    expect: [['partials.notes', 'triple_stash', 1]],
  },
  {
    name: 'a prototype walk',
    pkg: { partials: { notes: '<p>{{notes.constructor.name}}</p>' } },
    expect: [['partials.notes', 'prototype_access', 1]],
  },
  {
    name: '__proto__',
    pkg: { partials: { notes: '{{#with __proto__}}x{{/with}}' } },
    expect: [['partials.notes', 'prototype_access', 1]],
  },
  {
    name: 'a field in a tag',
    pkg: { partials: { notes: '<p {{notes.text}}>x</p>' } },
    expect: [['partials.notes', 'handlebars_in_markup', 1]],
  },
  {
    name: 'a field in a style attribute',
    pkg: { partials: { notes: '<p style="color: {{notes.text}}">x</p>' } },
    expect: [['partials.notes', 'handlebars_in_markup', 1]],
  },
  {
    name: "pointer-events: none on a box (it would hide a cover from the contract's hit test)",
    pkg: { css: '.totals__row { color: #111; }\n.cover { pointer-events: none; }' },
    expect: [['css', 'css_pointer_events', 2]],
  },
  {
    name: 'pointer-events in a style attribute',
    pkg: { partials: { notes: '<div>\n<p style="pointer-events: none">x</p></div>' } },
    expect: [['partials.notes', 'css_pointer_events', 2]],
  },
  {
    name: 'Handlebars that does not parse',
    pkg: { partials: { notes: '<p>{{#if notes}}x</p>' } },
    expect: [['partials.notes', 'handlebars_syntax']],
  },
];
