// The development preview. The editor's JSON is posted to /preview/html (the invoice HTML, shown
// in a sandboxed iframe at the PDF's content width) and, in the page-break view, to
// /preview/pages (the pages of the real PDF as images). /preview/events announces template and
// style changes on disk. Every text from the server is inserted as text, never as markup.

const $ = (id) => document.getElementById(id);
const editor = $('invoice');
const paperSelect = $('paper');
const currencySelect = $('currency');
const localeSelect = $('locale');
const documentTypeSelect = $('document-type');
const designSelect = $('design');
const stampSelect = $('stamp');
const themeSelect = $('theme');
/** Sample themes by name (start.json), put inline into the JSON by the theme switch. */
let themes = {};
let examples = {};
const frame = $('html');
const sheet = $('sheet');

const PAPER_WIDTH_MM = { A4: 210, Letter: 215.9 };
const TIMEOUT_MS = 30_000;

let margins = { top: '14mm', right: '16mm', bottom: '10mm', left: '16mm' };
let view = 'html';
let generation = 0;

async function start() {
  const setup = await (await fetch('/preview/start.json', { signal: AbortSignal.timeout(TIMEOUT_MS) })).json();
  margins = setup.margins;
  currencySelect.replaceChildren(...setup.currencies.map((code) => new Option(code, code)));
  localeSelect.append(...setup.locales.map(({ tag, name }) => new Option(`${name} (${tag})`, tag)));
  paperSelect.value = setup.paperSize;
  designSelect.replaceChildren(...setup.designs.map((name) => new Option(name, name)));
  stampSelect.append(...setup.stamps.map((name) => new Option(name, name)));
  themes = setup.themes;
  themeSelect.append(...Object.keys(themes).map((name) => new Option(name, name)));
  examples = setup.examples;
  editor.value = JSON.stringify(setup.example, null, 2);

  let typing;
  editor.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(refresh, 300);
  });
  paperSelect.addEventListener('change', refresh);
  currencySelect.addEventListener('change', switchCurrency);
  localeSelect.addEventListener('change', () =>
    editInvoice((invoice) => setOrDelete(invoice, 'locale', localeSelect.value)),
  );
  documentTypeSelect.addEventListener('change', () =>
    editInvoice((invoice) =>
      setOrDelete(invoice, 'document_type', documentTypeSelect.value === 'invoice' ? '' : documentTypeSelect.value),
    ),
  );
  designSelect.addEventListener('change', () =>
    editInvoice((invoice) =>
      setOrDelete(invoice, 'design', designSelect.value === setup.designs[0] ? '' : designSelect.value),
    ),
  );
  stampSelect.addEventListener('change', () =>
    editInvoice((invoice) => setOrDelete(invoice, 'stamp', stampSelect.value)),
  );
  themeSelect.addEventListener('change', () =>
    editInvoice((invoice) => setOrDelete(invoice, 'theme', themes[themeSelect.value])),
  );
  $('logo').addEventListener('change', chooseLogo);
  $('logo-remove').addEventListener('click', () => editInvoice((invoice) => setOrDelete(invoice, 'logo', '')));
  $('example').addEventListener('change', () => {
    editor.value = JSON.stringify(examples[$('example').value], null, 2);
    refresh();
  });
  $('download').addEventListener('click', download);
  $('tab-html').addEventListener('click', () => showView('html'));
  $('tab-pages').addEventListener('click', () => showView('pages'));
  frame.addEventListener('load', fitFrame);
  listenForTemplateChanges();
  await refresh();
}

/** The editor's invoice, or a syntax issue in the shape of the API's error body. */
function readInvoice() {
  try {
    return { invoice: JSON.parse(editor.value) };
  } catch (error) {
    return {
      error: {
        code: 'invalid_json',
        message: 'The editor does not hold valid JSON.',
        issues: [{ path: '', message: error.message }],
      },
    };
  }
}

function post(path, invoice) {
  return fetch(`${path}?paper=${encodeURIComponent(paperSelect.value)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(invoice),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
}

async function refresh() {
  const mine = ++generation;
  const { invoice, error } = readInvoice();
  if (error) return showIssues(error);
  if (invoice && typeof invoice.currency === 'string') currencySelect.value = invoice.currency;
  if (invoice && typeof invoice === 'object') {
    localeSelect.value = [...localeSelect.options].some((option) => option.value === invoice.locale)
      ? invoice.locale
      : '';
    documentTypeSelect.value = invoice.document_type === 'credit_note' ? 'credit_note' : 'invoice';
    designSelect.value = typeof invoice.design === 'string' ? invoice.design : (designSelect.options[0]?.value ?? '');
    stampSelect.value = typeof invoice.stamp === 'string' ? invoice.stamp : '';
    const themeName = Object.keys(themes).find(
      (name) => JSON.stringify(themes[name]) === JSON.stringify(invoice.theme),
    );
    themeSelect.value = themeName ?? '';
  }
  document.body.classList.add('busy');
  try {
    const response = await post('/preview/html', invoice);
    const body = await response.json();
    if (mine !== generation) return;
    if (!response.ok) return showIssues(body.error);
    showIssues(null, body);
    showHtml(body);
    if (view === 'pages') await showPages(invoice, mine);
  } catch (failure) {
    if (mine === generation) showStatus(`Preview failed: ${failure.message}`, true);
  } finally {
    if (mine === generation) document.body.classList.remove('busy');
  }
}

/** The validation issues with their paths (the body of a 400 from the API), or the total when valid. */
function showIssues(error, valid) {
  document.body.classList.toggle('invalid', Boolean(error));
  $('issues-summary').textContent = error ? error.message : `No issues. Total due ${valid.total} (${valid.currency}).`;
  $('issue-list').replaceChildren(
    ...(error?.issues ?? []).map((issue) => {
      const item = document.createElement('li');
      const path = document.createElement('code');
      path.textContent = issue.path || '(invoice)';
      item.append(path, ` ${issue.message}`);
      return item;
    }),
  );
}

function showHtml({ html, paper }) {
  const side = (value) => parseFloat(value);
  sheet.style.width = `${PAPER_WIDTH_MM[paper]}mm`;
  sheet.style.padding = `${margins.top} ${margins.right} ${margins.bottom} ${margins.left}`;
  frame.style.width = `${PAPER_WIDTH_MM[paper] - side(margins.left) - side(margins.right)}mm`;
  frame.srcdoc = html;
  if (view === 'html') $('view-summary').textContent = `${paper}, content width as printed`;
}

/** The iframe as tall as the invoice, so the view scrolls as one sheet (allowed: same origin, no scripts). */
function fitFrame() {
  const doc = frame.contentDocument;
  if (doc) frame.style.height = `${doc.documentElement.scrollHeight}px`;
}

async function showPages(invoice, mine) {
  $('view-summary').textContent = 'Printing…';
  const response = await post('/preview/pages', invoice);
  const body = await response.json();
  if (mine !== generation) return;
  if (!response.ok) return showStatus(body.error.message, true);
  $('view-summary').textContent = `${body.paper}, ${body.pages} page${body.pages === 1 ? '' : 's'}`;
  const figures = body.images.map((src, index) => {
    const figure = document.createElement('figure');
    const image = document.createElement('img');
    image.src = src;
    image.alt = `Page ${index + 1} of ${body.pages}`;
    const caption = document.createElement('figcaption');
    caption.textContent = `Page ${index + 1} of ${body.pages}`;
    figure.append(image, caption);
    return figure;
  });
  if (body.imagesError) {
    const note = document.createElement('p');
    note.textContent = body.imagesError;
    figures.push(note);
  }
  $('pages').replaceChildren(...figures);
}

function showView(name) {
  view = name;
  $('tab-html').setAttribute('aria-selected', String(name === 'html'));
  $('tab-pages').setAttribute('aria-selected', String(name === 'pages'));
  $('html-view').hidden = name !== 'html';
  $('pages-view').hidden = name !== 'pages';
  refresh();
}

/** The switches edit the JSON, so that the editor always holds exactly what is shown. */
function editInvoice(change) {
  const { invoice, error } = readInvoice();
  if (error || typeof invoice !== 'object' || invoice === null) {
    showStatus('Fix the JSON before using the switches.', true);
    return;
  }
  change(invoice);
  editor.value = JSON.stringify(invoice, null, 2);
  refresh();
}

function setOrDelete(invoice, key, value) {
  if (value) invoice[key] = value;
  else delete invoice[key];
}

function switchCurrency() {
  editInvoice((invoice) => {
    invoice.currency = currencySelect.value;
  });
}

/** The chosen image goes into the JSON as a data URI, as an API client would send it. */
function chooseLogo(event) {
  const file = event.target.files?.[0];
  if (!file) return;
  const reader = new FileReader();
  reader.addEventListener('load', () => editInvoice((invoice) => setOrDelete(invoice, 'logo', String(reader.result))));
  reader.readAsDataURL(file);
  event.target.value = '';
}

async function download() {
  const { invoice, error } = readInvoice();
  if (error) return showIssues(error);
  const button = $('download');
  button.disabled = true;
  try {
    const response = await post('/preview/invoice.pdf', invoice);
    if (!response.ok) return showIssues((await response.json()).error);
    const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'invoice.pdf';
    const url = URL.createObjectURL(await response.blob());
    const link = Object.assign(document.createElement('a'), { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    showStatus(`Downloaded ${name}: ${response.headers.get('x-page-count')} page(s), not paid (development only).`);
  } catch (failure) {
    showStatus(`Download failed: ${failure.message}`, true);
  } finally {
    button.disabled = false;
  }
}

function listenForTemplateChanges() {
  const source = new EventSource('/preview/events');
  let lost = false;
  source.addEventListener('templates', (event) => {
    const change = JSON.parse(event.data);
    if (change.ok) {
      showStatus(`Templates and styles reloaded at ${new Date().toLocaleTimeString()}.`);
      refresh();
    } else {
      showStatus(`Template error (the last good version stays in use): ${change.error}`, true);
    }
  });
  source.addEventListener('error', () => {
    lost = true;
    showStatus('Lost the connection to the server; retrying…', true);
  });
  source.addEventListener('open', () => {
    document.body.dataset.live = 'true';
    if (!lost) return;
    lost = false;
    showStatus('Reconnected.');
    refresh();
  });
}

function showStatus(text, isError = false) {
  const status = $('status');
  status.textContent = text;
  status.classList.toggle('error', isError);
}

start().catch((error) => showStatus(`The preview could not start: ${error.message}`, true));
