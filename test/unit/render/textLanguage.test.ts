import assert from 'node:assert/strict';
import { test } from 'node:test';
import { textLanguage } from '../../../src/render/textLanguage.js';

const cases: [text: string, currencyLocale: string, expected: string][] = [
  ['Northwind Studio GmbH', 'en-US', ''],
  ['شركة المثال', 'en-US', ''],
  ['株式会社サンプル', 'en-US', 'ja'], // kana: Japanese whatever the currency
  ['서울특별시', 'ja-JP', 'ko'],
  ['东京软件', 'zh-CN', 'zh'],
  ['東京都', 'ja-JP', 'ja'], // Han only: the currency's locale decides
  ['東京都', 'en-US', 'zh'],
  ['', 'ja-JP', ''],
];

for (const [text, locale, expected] of cases) {
  test(`textLanguage(${JSON.stringify(text)}, ${locale}) = ${JSON.stringify(expected)}`, () => {
    assert.equal(textLanguage(text, locale), expected);
  });
}
