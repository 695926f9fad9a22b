import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { InputRejected } from '../../../src/errors.js';
import { EXAMPLE_EINVOICE } from '../../../src/einvoice/example.js';
import { checkEInvoice, prepareEInvoice } from '../../../src/einvoice/prepareEInvoice.js';
import { EN16931_RULES } from '../../../src/einvoice/rules.js';
import { isUnitCode } from '../../../src/einvoice/unitCodes.js';

/** Each EN 16931 rule the service checks: a body that breaks it, and the issues it must give. */
const line = { description: 'Work', quantity: 1, unit_price: 100, tax_rate: 19 };
const zero = (category: string) => ({ ...line, tax_rate: 0, tax_category: category });
const seller = EXAMPLE_EINVOICE.seller;
const buyer = EXAMPLE_EINVOICE.buyer;
const CASES: [string, object, [string, string][]][] = [
  ['BR-09', { seller: { ...seller, country: undefined } }, [['BR-09', 'seller.country']]],
  ['BR-11', { buyer: { ...buyer, country: undefined } }, [['BR-11', 'buyer.country']]],
  ['BR-57', { ship_to: { name: 'Warehouse', city: 'Köln' } }, [['BR-57', 'ship_to.country']]],
  ['BR-CO-26', { seller: { ...seller, vat_id: undefined, tax_id: '12/345/67890' } }, [['BR-CO-26', 'seller.vat_id']]],
  ['BR-CO-09', { buyer: { ...buyer, vat_id: 'QQ123456' } }, [['BR-CO-09', 'buyer.vat_id']]],
  ['BR-CL-23', { line_items: [{ ...line, unit: 'HRS' }] }, [['BR-CL-23', 'line_items[0].unit']]],
  ['BR-CO-25', { due_date: undefined }, [['BR-CO-25', 'due_date']]],
  [
    'BR-S-02',
    { seller: { ...seller, vat_id: undefined } },
    [
      ['BR-CO-26', 'seller.vat_id'],
      ['BR-S-02', 'seller.vat_id'],
    ],
  ],
  [
    'BR-Z-02',
    { seller: { ...seller, vat_id: undefined }, line_items: [zero('Z')] },
    [
      ['BR-CO-26', 'seller.vat_id'],
      ['BR-Z-02', 'seller.vat_id'],
    ],
  ],
  [
    'BR-E-02',
    { seller: { ...seller, vat_id: undefined }, line_items: [zero('E')], tax_exemption_reason: 'Art. 132' },
    [
      ['BR-CO-26', 'seller.vat_id'],
      ['BR-E-02', 'seller.vat_id'],
    ],
  ],
  ['BR-E-10', { line_items: [zero('E')] }, [['BR-E-10', 'tax_exemption_reason']]],
  ['BR-AE-02', { buyer: { ...buyer, vat_id: undefined }, line_items: [zero('AE')] }, [['BR-AE-02', 'buyer.vat_id']]],
  ['BR-IC-02', { buyer: { ...buyer, vat_id: undefined }, line_items: [zero('K')] }, [['BR-IC-02', 'buyer.vat_id']]],
  [
    'BR-G-02',
    { seller: { ...seller, vat_id: undefined, tax_id: '12/345' }, line_items: [zero('G')] },
    [
      ['BR-CO-26', 'seller.vat_id'],
      ['BR-G-02', 'seller.vat_id'],
    ],
  ],
  [
    'BR-O-02 and BR-O-11',
    { line_items: [zero('O'), line] },
    [
      ['BR-O-02', 'seller.vat_id'],
      ['BR-O-02', 'buyer.vat_id'],
      ['BR-O-11', 'line_items[1].tax_category'],
    ],
  ],
];

describe('the EN 16931 rules, one by one', () => {
  for (const [name, change, expected] of CASES) {
    test(name, () => {
      const body = { ...EXAMPLE_EINVOICE, ...change };
      const { issues } = checkEInvoice(JSON.parse(JSON.stringify(body)));
      assert.deepEqual(
        issues.map((issue) => [issue.code, issue.path]),
        expected,
      );
      assert.throws(
        () => prepareEInvoice(JSON.parse(JSON.stringify(body))),
        (error: unknown) => error instanceof InputRejected && error.code === 'en16931_rules_failed',
      );
    });
  }

  test('every rule has a case here', () => {
    const covered = new Set(CASES.flatMap(([, , expected]) => expected.map(([id]) => id)));
    assert.deepEqual(
      EN16931_RULES.map((rule) => rule.id).filter((id) => !covered.has(id)),
      [],
    );
  });

  test('the example passes, and O alone without VAT ids still fails BR-CO-26', () => {
    assert.deepEqual(checkEInvoice(EXAMPLE_EINVOICE).issues, []);
    const onlyO = {
      ...EXAMPLE_EINVOICE,
      seller: { ...seller, vat_id: undefined },
      buyer: { ...buyer, vat_id: undefined },
      line_items: [zero('O')],
      discount: undefined,
    };
    assert.deepEqual(
      checkEInvoice(JSON.parse(JSON.stringify(onlyO))).issues.map((issue) => issue.code),
      ['BR-CO-26'],
    );
  });
});

test('Rec 20/21 unit codes', () => {
  for (const code of ['HUR', 'DAY', 'C62', 'KGM', 'H87', 'XBX', 'MTR']) assert.equal(isUnitCode(code), true, code);
  for (const code of ['HRS', 'PCS', 'ZZZ', 'hur', '']) assert.equal(isUnitCode(code), false, code);
});
