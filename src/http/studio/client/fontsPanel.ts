import * as v from 'valibot';
import { call, failureText, readJson } from './api.js';
import { UploadedFontSchema } from './designPackage.js';

/**
 * Brand fonts: a font file chosen on the page goes to PUT /v1/fonts (stored by the hash of its
 * bytes); the package names it by family in `fonts`, and the service writes its @font-face rule.
 */
export interface FontsOptions {
  input: HTMLInputElement;
  status: HTMLElement;
  list: HTMLElement;
  fonts(): Record<string, string>;
  setFonts(fonts: Record<string, string>): void;
}

const FONT_TYPES: Record<string, string> = {
  ttf: 'font/ttf',
  otf: 'font/otf',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

export interface FontsPanel {
  /** Lists the package's fonts (after a fork, a load or an upload). */
  render(): void;
}

export function fontsPanel(options: FontsOptions): FontsPanel {
  const { input, status, list } = options;

  const render = () => {
    const items = Object.entries(options.fonts()).map(([family, id]) => {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.textContent = `${family} `;
      const code = document.createElement('code');
      code.textContent = id;
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.textContent = `Remove ${family}`;
      remove.addEventListener('click', () => {
        const { [family]: _removed, ...rest } = options.fonts();
        options.setFonts(rest);
        status.textContent = `${family} removed from the design.`;
        render();
        input.focus();
      });
      item.append(name, code, ' ', remove);
      return item;
    });
    list.replaceChildren(...items);
  };

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
        headers: { 'Content-Type': file.type || FONT_TYPES[extension] || 'application/octet-stream' },
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
    const font = parsed.output;
    options.setFonts({ ...options.fonts(), [font.family]: font.id });
    const detail = [font.weight, font.style].filter((part) => part !== undefined).join(' ');
    status.textContent = `${font.family}${detail ? ` (${detail})` : ''} uploaded: use font-family: "${font.family}" in the CSS.`;
    render();
  });

  return { render };
}
