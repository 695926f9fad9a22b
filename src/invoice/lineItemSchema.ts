import * as v from 'valibot';
import { LIMITS } from './limits.js';
import { amount, text } from './textRules.js';
import { VAT_CATEGORIES } from './vatCategories.js';

export const LineItemSchema = v.strictObject(
  {
    description: text({ min: 1, max: LIMITS.description, description: 'What was sold, 1 to 300 characters.' }),
    quantity: amount({
      min: 0,
      max: LIMITS.quantity,
      exclusiveMin: true,
      description: 'Quantity, greater than 0 and at most 1000000; decimals allowed (e.g. 1.5 hours).',
    }),
    unit_price: amount({
      min: 0,
      max: LIMITS.unitPrice,
      description:
        'Price of one unit in major units of the currency (12.5 = twelve and a half dollars), 0 to 1000000000.',
    }),
    tax_rate: v.optional(
      amount({
        min: 0,
        max: LIMITS.taxRate,
        description: "This line's VAT rate in percent, 0 to 100; overrides the invoice's tax_rate.",
      }),
    ),
    tax_category: v.optional(
      v.pipe(
        v.picklist(VAT_CATEGORIES, `must be one of ${VAT_CATEGORIES.join(', ')}`),
        v.description(
          'EN 16931 VAT category: S standard, Z zero rated, E exempt, AE reverse charge, K intra-EU supply, G export, O not subject to VAT. Default S when the rate is above 0, else Z. S needs a rate above 0, the others a rate of 0.',
        ),
      ),
    ),
    unit: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Z0-9]{2,3}$/, 'must be a UN/ECE Recommendation 20 unit code such as HUR, DAY, C62 or KGM'),
        v.description(
          'UN/ECE Rec 20 unit code (HUR hour, DAY day, C62 piece, KGM kilogram, …), printed after the quantity with its name in the invoice language.',
        ),
      ),
    ),
    item_code: v.optional(
      text({ min: 1, max: LIMITS.itemCode, description: "The seller's item number, 1 to 64 characters." }),
    ),
    // The Peppol PINT and Croatian e-invoice line fields (docs/e-invoices-pint.md); other routes ignore them.
    tax_code: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(/^[A-Z0-9-]{1,10}$/, 'must be a tax category code such as SR, SE or AA'),
        v.description(
          "The jurisdiction's own tax category code under a pint-* profile where it has several for one EN 16931 category: Singapore SR, SRCA-S, ZR, ES33, ESN33, OS; Malaysia SA (sales tax), SE (service tax), E, O; Japan S, AA (reduced 8 %). It must stand for the line's tax_category.",
        ),
      ),
    ),
    item_classification: v.optional(
      v.strictObject(
        {
          scheme: v.pipe(
            v.string('must be a string'),
            v.regex(/^[A-Z]{2,3}$/, 'must be a UNTDID 7143 list id such as CG (Croatian KPD/CPA) or HS'),
            v.description("The classification list (BT-158-1, UNTDID 7143): CG for Croatia's KPD (CPA), HS, …"),
          ),
          code: text({
            min: 1,
            max: 40,
            description: 'The item classification code (BT-158), e.g. the KPD code 62.01.11.',
          }),
        },
        'unknown property',
      ),
    ),
  },
  'unknown property',
);

export type LineItem = v.InferOutput<typeof LineItemSchema>;
