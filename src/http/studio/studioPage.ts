import { DESIGNS } from '../../invoice/designFields.js';
import { ENVELOPE_NAMES, type EnvelopeName } from '../../invoice/envelopes.js';
import { LANGUAGES } from '../../invoice/locales.js';

/** The envelope windows to try (the invoice field `envelope`, docs/designs.md), in words. */
const ENVELOPE_LABELS: Record<EnvelopeName, string> = {
  'din-5008-a': 'DIN 5008 form A (window high)',
  'din-5008-b': 'DIN 5008 form B (window low)',
  'ch-left': 'Swiss, window left',
  'ch-right': 'Swiss, window right',
  'us-10': 'US No. 10 (Letter paper)',
};

/**
 * The policy of the page and its files: everything from this origin only. pdf.js draws the
 * preview's pages in a worker (worker-src) into canvases that become blob: images; the PDF arrives
 * by fetch (connect-src). No inline script; the one inline style allowed is what CodeMirror's own
 * script inserts (its editor styles, in <style> elements), by the page's nonce, fresh per request.
 */
export const studioCsp = (nonce?: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "worker-src 'self'",
    nonce ? `style-src 'self' 'nonce-${nonce}'` : "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const option = (value: string, label: string) => `<option value="${escapeHtml(value)}">${escapeHtml(label)}</option>`;

/** "German (Deutsch)": the page speaks English; a language's own name helps those who read it. */
function languageLabel(language: string): string {
  const english = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  const own = new Intl.DisplayNames([language], { type: 'language' }).of(language) ?? language;
  return own === english ? english : `${english} (${own})`;
}

/**
 * GET /studio: the page's markup; its script (studio.js) fills the editors, pickers and preview.
 * The script element carries the style nonce for CodeMirror (the .nonce property, which browsers
 * hide from the attribute once the policy has read it).
 */
export function studioPage(nonce: string): string {
  const designs = DESIGNS.map((name) => option(name, name)).join('');
  const languages = [option('', "The invoice's own"), ...LANGUAGES.map((tag) => option(tag, languageLabel(tag)))].join(
    '',
  );
  const envelopes = [option('', 'None'), ...ENVELOPE_NAMES.map((name) => option(name, ENVELOPE_LABELS[name]))].join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Design studio · Invoice PDF</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="/studio/studio.css">
<script type="module" src="/studio/studio.js" nonce="${nonce}"></script>
</head>
<body>
<a class="skip" href="#files-title">Skip to the editors</a>
<header class="top">
<h1>Design studio</h1>
<p>Fork a built-in design or load a stored one, edit its HTML and CSS beside a watermarked preview of the reference invoices, and save it to buy invoices in it by its id. What you type stays in this browser (kept for a reload) until you press Save. <a href="/docs">API reference</a></p>
</header>
<main id="studio" data-ready="false">
<section class="panel start" aria-labelledby="start-title">
<h2 id="start-title">Start</h2>
<form id="fork-form" class="row">
<label for="fork-design">Built-in design</label>
<select id="fork-design" name="design">${designs}</select>
<button type="submit">Fork</button>
</form>
<form id="load-form" class="row">
<label for="load-id">Stored design id</label>
<input id="load-id" name="id" type="text" autocomplete="off" spellcheck="false" placeholder="sha256:…" aria-describedby="load-hint">
<button type="submit">Load</button>
<span id="load-hint" class="hint">The id Save showed, sha256: and 64 hex digits.</span>
</form>
<p id="start-status" class="status" role="status"></p>
</section>
<section class="panel files" aria-labelledby="files-title">
<h2 id="files-title" tabindex="-1">Files</h2>
<div id="file-tabs" role="tablist" aria-label="Files of the design"></div>
<div id="editors"></div>
<p class="hint">Tab leaves an editor; Ctrl+F searches; Ctrl+Shift+M lists the errors of the open file.</p>
</section>
<section class="panel preview" aria-labelledby="preview-title">
<h2 id="preview-title">Preview</h2>
<div class="row pickers">
<span class="field"><label for="invoice-pick">Reference invoice</label>
<select id="invoice-pick"></select></span>
<span class="field"><label for="language-pick">Language</label>
<select id="language-pick">${languages}</select></span>
<span class="field"><label for="envelope-pick">Envelope window</label>
<select id="envelope-pick">${envelopes}</select></span>

</div>
<div class="row">
<p id="preview-status" class="status" role="status"></p>
<button type="button" id="preview-retry" hidden>Retry the preview</button>
</div>
<div id="pages" class="pages" aria-busy="false"></div>
</section>
<section class="panel report" aria-labelledby="report-title">
<h2 id="report-title">Content contract</h2>
<p id="report-summary" class="status" role="status"></p>
<ul id="report-list"></ul>
</section>
<section class="panel fonts" aria-labelledby="fonts-title">
<h2 id="fonts-title">Brand fonts</h2>
<div class="row">
<label for="font-file">Font file (TTF, OTF, WOFF or WOFF2)</label>
<input id="font-file" type="file" accept=".ttf,.otf,.woff,.woff2,font/ttf,font/otf,font/woff,font/woff2">
</div>
<p id="font-status" class="status" role="status"></p>
<ul id="font-list"></ul>
<p class="hint">An uploaded font prints through the invoice's theme, in the use picked for it: the service writes its @font-face rule and sets <code>--font-face</code> (text) and <code>--font-heading</code> (headings), which the base stylesheet uses; write <code>font-family: var(--font-face)</code> in your CSS to use it elsewhere.</p>
</section>
<section class="panel save" aria-labelledby="save-title">
<h2 id="save-title">Save</h2>
<div class="row">
<button type="button" id="save">Save</button>
<p id="save-status" class="status" role="status"></p>
</div>
<div id="saved" hidden>
<p>Design id: <code id="saved-id"></code></p>
<h3 id="buy-json-title">Invoice JSON with this design</h3>
<pre tabindex="0" aria-labelledby="buy-json-title"><code id="buy-json"></code></pre>
<p><a id="buy-json-download" download="invoice.json" href="#">Download invoice.json</a></p>
<h3 id="buy-commands-title">Buy it</h3>
<pre tabindex="0" aria-labelledby="buy-commands-title"><code id="buy-commands"></code></pre>
</div>
</section>
</main>
</body>
</html>
`;
}
