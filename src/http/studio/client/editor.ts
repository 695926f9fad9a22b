import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type ViewUpdate,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { issueRange, type FileIssue } from './issues.js';

/**
 * One file's editor (CodeMirror 6): HTML with Handlebars expressions marked, or CSS; line numbers,
 * undo, search, and the check's issues as diagnostics at their line. Tab is not bound, so the
 * keyboard leaves the editor with Tab as from any field; the accessible name is the file's label.
 */

// Colours are the page's custom properties (studio.css), so light and dark follow the system.
const highlight = HighlightStyle.define([
  { tag: [tags.tagName, tags.keyword], color: 'var(--code-keyword)' },
  { tag: [tags.attributeName, tags.propertyName], color: 'var(--code-property)' },
  { tag: [tags.string, tags.attributeValue], color: 'var(--code-string)' },
  { tag: [tags.number, tags.unit, tags.color, tags.atom], color: 'var(--code-number)' },
  { tag: [tags.comment], color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.className, tags.labelName, tags.variableName], color: 'var(--code-name)' },
  { tag: [tags.angleBracket, tags.punctuation, tags.bracket], color: 'var(--code-punctuation)' },
]);

/** `{{…}}` and `{{{…}}}`: Handlebars inside the HTML, which the HTML grammar reads as text. */
const handlebarsMarks = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    private readonly matcher = new MatchDecorator({
      regexp: /\{\{\{?[\s\S]*?\}?\}\}/g,
      decoration: Decoration.mark({ class: 'cm-handlebars' }),
    });
    constructor(view: EditorView) {
      this.decorations = this.matcher.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = this.matcher.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);

/** The lines an issue names, marked so that the line itself shows it (and tests can find it). */
const setIssueLines = StateEffect.define<number[]>();
const issueLines = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (!effect.is(setIssueLines)) continue;
      const doc = transaction.state.doc;
      const lines = [...new Set(effect.value)].filter((line) => line <= doc.lines).sort((a, b) => a - b);
      next = Decoration.set(
        lines.map((line) =>
          Decoration.line({ class: 'cm-issueLine', attributes: { 'data-issue-line': String(line) } }).range(
            doc.line(line).from,
          ),
        ),
      );
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface FileEditor {
  view: EditorView;
  text(): string;
  showIssues(issues: readonly FileIssue[]): void;
  /** Puts the cursor on an issue's line and focuses the editor. */
  reveal(issue: FileIssue): void;
}

/** The page's style nonce (studioPage.ts): CodeMirror's <style> elements carry it. */
const styleNonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';

export function createEditor(
  parent: HTMLElement,
  options: { label: string; language: 'html' | 'css'; text: string; onChange: () => void },
): FileEditor {
  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    syntaxHighlighting(highlight),
    lintGutter(),
    issueLines,
    EditorView.lineWrapping,
    EditorView.cspNonce.of(styleNonce),
    keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap]),
    EditorView.contentAttributes.of({ 'aria-label': options.label, spellcheck: 'false' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange();
    }),
    ...(options.language === 'html' ? [html({ autoCloseTags: false }), handlebarsMarks] : [css()]),
  ];
  const view = new EditorView({ parent, state: EditorState.create({ doc: options.text, extensions }) });
  const lines = () => view.state.doc.toString().split('\n');
  return {
    view,
    text: () => view.state.doc.toString(),
    showIssues(issues) {
      const all = lines();
      const diagnostics: Diagnostic[] = issues.map((issue) => {
        const { from, to } = issueRange(all, issue);
        return { from, to, severity: 'error', source: issue.code, message: issue.message };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
      view.dispatch({ effects: setIssueLines.of(issues.map((issue) => issueRange(all, issue).line)) });
    },
    reveal(issue) {
      const { from } = issueRange(lines(), issue);
      view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
      view.focus();
    },
  };
}
