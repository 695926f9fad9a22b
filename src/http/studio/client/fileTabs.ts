import { createEditor, type FileEditor } from './editor.js';
import { fileLabel, type FileIssue } from './issues.js';

/**
 * The package's files as tabs (WAI-ARIA tabs: one tab stop, arrow keys, Home and End move between
 * them), each with its editor: HTML, CSS, then the partials by name. A tab says how many errors
 * the check found in its file.
 */
interface FileSources {
  html: string;
  css: string;
  partials: Record<string, string>;
}

export interface FileTabs {
  /** Shows a package's files (a fork or a load): new editors, the HTML tab selected. */
  open(sources: FileSources): void;
  sources(): FileSources;
  showIssues(issues: readonly FileIssue[]): void;
  /** Selects the issue's file and puts the cursor on its line. */
  reveal(issue: FileIssue): void;
}

interface Tab {
  file: string;
  tab: HTMLButtonElement;
  count: HTMLElement;
  panel: HTMLElement;
  editor: FileEditor;
}

export function fileTabs(tablist: HTMLElement, panels: HTMLElement, onChange: () => void): FileTabs {
  let tabs: Tab[] = [];

  const select = (chosen: Tab, focus: boolean) => {
    for (const entry of tabs) {
      const selected = entry === chosen;
      entry.tab.setAttribute('aria-selected', String(selected));
      entry.tab.tabIndex = selected ? 0 : -1;
      entry.panel.hidden = !selected;
    }
    if (focus) chosen.tab.focus();
    // An editor measured while hidden has no size: ask it to measure again now that it shows.
    chosen.editor.view.requestMeasure();
  };

  tablist.addEventListener('keydown', (event) => {
    const at = tabs.findIndex((entry) => entry.tab === event.target);
    if (at < 0) return;
    const next = {
      ArrowRight: at + 1,
      ArrowDown: at + 1,
      ArrowLeft: at - 1,
      ArrowUp: at - 1,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    select(tabs[(next + tabs.length) % tabs.length]!, true);
  });

  const add = (file: string, text: string, index: number): Tab => {
    const label = fileLabel(file);
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.setAttribute('role', 'tab');
    tab.id = `file-tab-${index}`;
    tab.setAttribute('aria-controls', `file-panel-${index}`);
    tab.dataset.file = file;
    const name = document.createElement('span');
    name.textContent = label;
    const count = document.createElement('span');
    count.className = 'count';
    tab.append(name, count);
    const panel = document.createElement('div');
    panel.setAttribute('role', 'tabpanel');
    panel.id = `file-panel-${index}`;
    panel.setAttribute('aria-labelledby', tab.id);
    panel.className = 'editor';
    tablist.append(tab);
    panels.append(panel);
    const editor = createEditor(panel, { label, language: file === 'css' ? 'css' : 'html', text, onChange });
    const entry: Tab = { file, tab, count, panel, editor };
    tab.addEventListener('click', () => select(entry, false));
    return entry;
  };

  return {
    open(sources) {
      for (const entry of tabs) entry.editor.view.destroy();
      tablist.replaceChildren();
      panels.replaceChildren();
      const files: [string, string][] = [
        ['html', sources.html],
        ['css', sources.css],
        ...Object.keys(sources.partials)
          .sort()
          .map((name): [string, string] => [`partials.${name}`, sources.partials[name]!]),
      ];
      tabs = files.map(([file, text], index) => add(file, text, index));
      select(tabs[0]!, false);
    },
    sources() {
      const text = (file: string) => tabs.find((entry) => entry.file === file)?.editor.text() ?? '';
      const partials: Record<string, string> = {};
      for (const entry of tabs) {
        if (entry.file.startsWith('partials.')) partials[entry.file.slice('partials.'.length)] = entry.editor.text();
      }
      return { html: text('html'), css: text('css'), partials };
    },
    showIssues(issues) {
      for (const entry of tabs) {
        const own = issues.filter((issue) => issue.file === entry.file);
        entry.editor.showIssues(own);
        entry.count.textContent = own.length ? ` · ${own.length} ${own.length === 1 ? 'error' : 'errors'}` : '';
        entry.tab.classList.toggle('has-errors', own.length > 0);
      }
    },
    reveal(issue) {
      const entry = tabs.find((candidate) => candidate.file === issue.file);
      if (!entry) return;
      select(entry, false);
      entry.editor.reveal(issue);
    },
  };
}
