import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DRAFT_KEY,
  dropDraft,
  loadDraft,
  saveDraft,
  type Draft,
  type DraftStorage,
} from '../../../src/http/studio/client/draft.js';

function memoryStorage(): DraftStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const draft: Draft = {
  version: 1,
  base: 'classic',
  package: {
    data_version: 1,
    html: '<p>{{invoice_number}}</p>',
    css: 'p{}',
    partials: { totals: '' },
  },
  invoice: 'one-line',
  locale: 'de',
  envelope: 'ch-left',
  fonts: [{ id: 'sha256:ab', family: 'Brand', weight: 700, style: 'normal', use: 'font_bold' }],
};

test('a kept draft comes back as it was written', () => {
  const storage = memoryStorage();
  assert.equal(saveDraft(storage, draft), true);
  assert.deepEqual(loadDraft(storage), draft);
  dropDraft(storage);
  assert.equal(loadDraft(storage), undefined);
});

test('a stored value this page did not write is dropped, not half-used', () => {
  const storage = memoryStorage();
  for (const value of [
    '{not json',
    JSON.stringify({ ...draft, version: 2 }),
    JSON.stringify({ ...draft, package: { html: 1 } }),
  ]) {
    storage.items.set(DRAFT_KEY, value);
    assert.equal(loadDraft(storage), undefined);
    assert.equal(storage.items.has(DRAFT_KEY), false);
  }
});

test('a browser that refuses storage (full or switched off) is reported, never thrown', () => {
  const refusing: DraftStorage = {
    getItem: () => {
      throw new DOMException('denied', 'SecurityError');
    },
    setItem: () => {
      throw new DOMException('full', 'QuotaExceededError');
    },
    removeItem: () => {
      throw new DOMException('denied', 'SecurityError');
    },
  };
  assert.equal(saveDraft(refusing, draft), false);
  assert.equal(loadDraft(refusing), undefined);
  assert.doesNotThrow(() => dropDraft(refusing));
});
