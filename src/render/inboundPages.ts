/**
 * The printed HTML of a file of several documents (a FatturaPA with several bodies): the first
 * document's page, with each further document's <main> after its own, each opening a new page
 * (styles/inbound.css .invoice--next-document), and the footer naming them all. The pages are filled from templates/invoice.hbs,
 * whose one <main class="invoice"> holds a document; user text in it is escaped by Handlebars, so
 * the markers below can only be the template's own.
 */
const MAIN_OPEN = '<main class="invoice">';
const MAIN_CLOSE = '</main>';
/** templates/partials/page-footer.hbs: the number in the footer every page repeats. */
const FOOTER_NUMBER = /(<footer class="page-footer">[^<]*<bdi>)([^<]*)(<\/bdi>)/;

export function joinDocumentPages(pages: readonly string[]): string {
  const [first, ...further] = pages;
  if (first === undefined) throw new Error('joinDocumentPages needs at least one page');
  if (further.length === 0) return first;
  const mains = further.map((page) => {
    const start = page.indexOf(MAIN_OPEN);
    const end = page.lastIndexOf(MAIN_CLOSE);
    if (start < 0 || end < start) throw new Error('an inbound page has no <main class="invoice">');
    return `<main class="invoice invoice--next-document">${page.slice(start + MAIN_OPEN.length, end)}${MAIN_CLOSE}`;
  });
  const after = first.lastIndexOf(MAIN_CLOSE) + MAIN_CLOSE.length;
  const joined = `${first.slice(0, after)}\n${mains.join('\n')}${first.slice(after)}`;
  // One footer repeats on every page: it names the file's documents, not only the first.
  const numbers = pages.map((page) => FOOTER_NUMBER.exec(page)?.[2] ?? '');
  const named = numbers.length > 3 ? `${numbers[0]} … ${numbers.at(-1)}` : numbers.join(' · ');
  return joined.replace(FOOTER_NUMBER, (_match, open: string, _number: string, close: string) => open + named + close);
}
