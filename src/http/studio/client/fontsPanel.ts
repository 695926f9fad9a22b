import * as v from 'valibot';
import { call, failureText, readJson } from './api.js';
import { fontApplies, FONT_USES, UploadedFontSchema, type BrandFont, type FontUse } from './designPackage.js';

/**
 * Brand fonts: a font file chosen on the page goes to PUT /v1/fonts (stored by the hash of its
 * bytes, the service answers its id, family, weight and style); the designer says what it is for
 * (text, bold text, headings, bold headings) and the preview's invoice names it in its theme, as an
 * invoice bought in the design does (the service writes the @font-face rules).
 */
export interface FontsOptions {
  input: HTMLInputElement;
  status: HTMLElement;
  list: HTMLElement;
  fonts(): BrandFont[];
  setFonts(fonts: BrandFont[]): void;
}

const FONT_TYPES: Record<string, string> = {
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

const USE_LABELS: Record<FontUse, string> = {
  font: 'Text',
  font_bold: 'Bold text',
  heading_font: 'Headings',
  heading_font_bold: 'Bold headings',
};

export interface FontsPanel {
  /** Lists the fonts (after a load, a restore or an upload). */
  render(): void;
}

export function fontsPanel(options: FontsOptions): FontsPanel {
  const { input, status, list } = options;

  const item = (font: BrandFont, index: number) => {
    const entry = document.createElement('li');
    const name = document.createElement('span');
    name.textContent = `${font.family} ${[font.weight, font.style].filter((part) => part !== undefined).join(' ')} `;
    const code = document.createElement('code');
    code.textContent = font.id;
    const label = document.createElement('label');
    label.htmlFor = `font-use-${index}`;
    label.textContent = `Use ${font.family} for`;
    const use = document.createElement('select');
    use.id = `font-use-${index}`;
    use.append(...FONT_USES.map((value) => new Option(USE_LABELS[value], value, false, value === font.use)));
    use.addEventListener('change', () => {
      options.setFonts(
        options.fonts().map((other, at) => (at === index ? { ...other, use: use.value as FontUse } : other)),
      );
      // Whether each bold face applies may have changed: list again, the keyboard kept on this picker.
      render();
      document.getElementById(use.id)?.focus();
    });
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = `Remove ${font.family}`;
    remove.addEventListener('click', () => {
      options.setFonts(options.fonts().filter((_other, at) => at !== index));
      status.textContent = `${font.family} is no longer used.`;
      render();
      input.focus();
    });
    entry.append(name, code, ' ', label, ' ', use, ' ', remove);
    if (!fontApplies(font, options.fonts())) {
      const note = document.createElement('span');
      note.className = 'hint';
      note.textContent = ` Not used yet: a bold face needs a font for its regular face (${font.use === 'font_bold' ? 'text' : 'headings'}).`;
      entry.append(note);
    }
    return entry;
  };

  const render = () => list.replaceChildren(...options.fonts().map(item));

  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    status.textContent = `Uploading ${file.name}…`;
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    const answer = await call(
      fetch,
      '/v1/fonts',
      {
        method: 'PUT',
        headers: { 'Content-Type': FONT_TYPES[extension] ?? (file.type || 'application/octet-stream') },
        body: file,
      },
      readJson,
    );
    input.value = '';
    if (!answer.ok) {
      status.textContent = failureText(answer.failure, `Uploading ${file.name}`);
      return;
    }
    const parsed = v.safeParse(UploadedFontSchema, answer.value);
    if (!parsed.success) {
      status.textContent = 'The font service answered something this page does not understand.';
      return;
    }
    const { id, family, weight, style } = parsed.output;
    // A bold face is the text's bold once a text font is there; the first font is the text's.
    const others = options.fonts().filter((other) => other.id !== id);
    const bold = Number(weight) >= 600 && others.some((other) => other.use === 'font');
    const font: BrandFont = {
      id,
      family,
      use: bold ? 'font_bold' : 'font',
      ...(weight !== undefined ? { weight } : {}),
      ...(style ? { style } : {}),
    };
    options.setFonts([...others, font]);
    status.textContent = `${family} uploaded, used for ${USE_LABELS[font.use].toLowerCase()} (change it below).`;
    render();
  });

  return { render };
}
