import * as v from 'valibot';
import { isCountryCode } from './countries.js';
import { E_INVOICE_PARTY_FIELDS } from './eInvoiceFields.js';
import { LIMITS } from './limits.js';
import { text } from './textRules.js';

/**
 * A party (seller, buyer, ship-to): the minimal invoice's fields, plus the structured address
 * and VAT identifier of the real-world invoice (docs/invoice.md). The free-text `address` stays and is
 * printed when the structured parts are absent.
 */
export const PartySchema = v.strictObject(
  {
    name: text({ min: 1, max: LIMITS.partyName, description: 'Legal or trading name, 1 to 120 characters.' }),
    address: v.optional(
      text({
        max: LIMITS.partyAddress,
        description:
          'Postal address as free text; newlines are kept as line breaks. At most 400 characters. Printed when street, city and postal_code are all absent.',
      }),
    ),
    email: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.maxLength(LIMITS.partyEmail, `must be at most ${LIMITS.partyEmail} characters long`),
        v.email('must be an email address like name@example.com'),
        v.description(
          'Email address (local-part@domain, top-level label of at least 2 letters), at most 254 characters.',
        ),
      ),
    ),
    phone: v.optional(
      text({ max: LIMITS.partyPhone, description: 'Phone number as it should be printed, at most 40 characters.' }),
    ),
    tax_id: v.optional(
      text({
        max: LIMITS.partyTaxId,
        description: 'Tax identifier other than the VAT ID (e.g. a national tax number), at most 60 characters.',
      }),
    ),
    vat_id: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.regex(
          /^[A-Z]{2}[0-9A-Za-z+*.-]{2,28}$/,
          'must be a VAT identifier with its two-letter country prefix and no spaces, such as DE123456789',
        ),
        v.description(
          'VAT identifier with its country prefix (EN 16931 BT-31/BT-48), e.g. DE123456789; 4 to 30 characters, no spaces.',
        ),
      ),
    ),
    street: v.optional(
      text({ min: 1, max: LIMITS.partyStreet, description: 'Street and number, 1 to 200 characters.' }),
    ),
    city: v.optional(text({ min: 1, max: LIMITS.partyCity, description: 'City, 1 to 100 characters.' })),
    postal_code: v.optional(
      text({ min: 1, max: LIMITS.partyPostalCode, description: 'Postal code, 1 to 20 characters.' }),
    ),
    country: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.check(isCountryCode, 'must be an ISO 3166-1 alpha-2 country code in capitals, such as DE, FR or US'),
        v.description(
          'ISO 3166-1 alpha-2 country code (e.g. DE); printed as the country name in the invoice language.',
        ),
      ),
    ),
    contact_name: v.optional(
      text({ min: 1, max: LIMITS.partyName, description: 'Contact person, 1 to 120 characters.' }),
    ),

    // The national e-invoice fields (EN 16931 BT numbers in their notes): eInvoiceFields.ts.
    ...E_INVOICE_PARTY_FIELDS,
  },
  'unknown property',
);

export type Party = v.InferOutput<typeof PartySchema>;
