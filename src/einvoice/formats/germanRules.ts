import type { Rule, RuleContext } from '../rules.js';
import { hasCategory, partyField, required, rule } from './ruleHelpers.js';

/** The German rules, shared by XRechnung (BR-DE-n) and Peppol when seller and buyer are German (DE-R-00n). */
export function germanRules(idOf: (n: number) => string, applies: (c: RuleContext) => boolean): Rule[] {
  return [
    // The official rule applies to credit notes too (their BG-16 names the account of the refund).
    required(
      idOf(1),
      'payment instructions (BG-16) are required, on credit notes too: payment.iban',
      'payment.iban',
      (invoice) => invoice.payment?.iban,
      applies,
    ),
    required(
      idOf(5),
      "the seller's contact point (BT-41) is required: seller.contact_name",
      'seller.contact_name',
      partyField('seller', 'contact_name'),
      applies,
    ),
    required(
      idOf(6),
      "the seller's contact telephone number (BT-42) is required: seller.phone",
      'seller.phone',
      partyField('seller', 'phone'),
      applies,
    ),
    required(
      idOf(7),
      "the seller's contact e-mail address (BT-43) is required: seller.email",
      'seller.email',
      partyField('seller', 'email'),
      applies,
    ),
    required(
      idOf(3),
      "the seller's city (BT-37) is required: seller.city",
      'seller.city',
      partyField('seller', 'city'),
      applies,
    ),
    required(
      idOf(4),
      "the seller's post code (BT-38) is required: seller.postal_code",
      'seller.postal_code',
      partyField('seller', 'postal_code'),
      applies,
    ),
    required(
      idOf(8),
      "the buyer's city (BT-52) is required: buyer.city",
      'buyer.city',
      partyField('buyer', 'city'),
      applies,
    ),
    required(
      idOf(9),
      "the buyer's post code (BT-53) is required: buyer.postal_code",
      'buyer.postal_code',
      partyField('buyer', 'postal_code'),
      applies,
    ),
    required(
      idOf(10),
      'a deliver-to address needs its city (BT-77): ship_to.city',
      'ship_to.city',
      (invoice) => invoice.ship_to?.city,
      (c) => applies(c) && c.invoice.ship_to !== undefined,
    ),
    required(
      idOf(11),
      'a deliver-to address needs its post code (BT-78): ship_to.postal_code',
      'ship_to.postal_code',
      (invoice) => invoice.ship_to?.postal_code,
      (c) => applies(c) && c.invoice.ship_to !== undefined,
    ),
    rule(
      idOf(14),
      'every VAT breakdown needs a rate (BT-119), which category O (not subject to VAT) cannot have',
      (c) =>
        applies(c) && hasCategory(c, 'O')
          ? c.totals.lineTax.flatMap((tax, at) =>
              tax.category === 'O'
                ? [
                    {
                      path: `line_items[${at}].tax_category`,
                      message:
                        'is O (not subject to VAT), which this profile cannot carry: its VAT breakdown needs a rate (BT-119)',
                    },
                  ]
                : [],
            )
          : [],
    ),
    required(
      idOf(15),
      'the buyer reference (BT-10) is required: buyer_reference (for public buyers their Leitweg-ID)',
      'buyer_reference',
      (invoice) => invoice.buyer_reference,
      applies,
    ),
  ];
}
