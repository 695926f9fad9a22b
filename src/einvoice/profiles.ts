import * as v from 'valibot';

import { describeSchemaFields } from '../invoice/fieldNotes.js';
import type { FormatModule } from './formats/format.js';
import { FORMATS } from './formats/registry.js';

/**
 * The e-invoice profiles, derived from the format registry (src/einvoice/formats/registry.ts): a
 * profile decides the specification identifier (BT-24) and the default business process (BT-23)
 * written into the XML, the syntaxes it exists in, and the rules checked before payment.
 */
type Registered = (typeof FORMATS)[number];
export type EInvoiceProfile = Registered['id'];
/** The syntaxes the profiles are written in (cii, ubl, factur-x, and any a format brings). */
export type EInvoiceFormat = Registered['writes'][number];

export const EINVOICE_PROFILES = FORMATS.map((format) => format.id) as [EInvoiceProfile, ...EInvoiceProfile[]];
export const DEFAULT_PROFILE: EInvoiceProfile = FORMATS[0].id;

export type ProfileDefinition = FormatModule<EInvoiceProfile, EInvoiceFormat>;

export const PROFILES = Object.fromEntries(
  FORMATS.map((format): [EInvoiceProfile, ProfileDefinition] => [format.id, format]),
) as Readonly<Record<EInvoiceProfile, ProfileDefinition>>;

const profileList = (describe: (profile: ProfileDefinition) => string) =>
  FORMATS.map((format) => `${format.id} (${describe(format)})`).join(', ');

export const ProfileField = v.optional(
  v.pipe(
    v.picklist(EINVOICE_PROFILES, `must be one of ${EINVOICE_PROFILES.join(', ')}`),
    v.description(
      `E-invoice profile: ${profileList((profile) => profile.blurb)}. Each profile writes its own specification and business-process identifiers and adds its own rules, checked before payment.`,
    ),
  ),
  DEFAULT_PROFILE,
);

/**
 * A format's own request object as /v1/schema lists it (null when it has none): its name, the routes
 * that take it (its own route and validate; with a printing hook the invoice PDFs too, under any
 * profile) and its field notes, generated from the schema the object is parsed with.
 */
function requestObjectOf(profile: ProfileDefinition) {
  const own = profile.checks?.own;
  if (!own) return null;
  const routes = [
    ...(profile.writer ? [profile.writer.route] : []),
    '/v1/e-invoice/validate',
    ...(profile.printing ? ['/v1/invoice.pdf', '/v1/invoice/validate', '/v1/e-invoice/factur-x.pdf'] : []),
  ];
  return {
    field: profile.id,
    routes,
    ...(profile.printing ? { prints: profile.printing.summary } : {}),
    fields: describeSchemaFields(own.field).map((note) => ({ ...note, path: `${profile.id}.${note.path}` })),
  };
}

/** The profiles as /v1/schema lists them. */
export function describeProfiles() {
  return {
    field: 'profile (top-level, optional, on the e-invoice routes and their MCP tools; default en16931)',
    profiles: EINVOICE_PROFILES.map((name) => {
      const profile = PROFILES[name];
      return {
        profile: name,
        title: profile.title,
        specification: profile.specification,
        default_business_process: profile.defaultBusinessProcess ?? null,
        formats: profile.writes,
        hybrid: profile.hybrid
          ? { embedded_file: profile.hybrid.fileName, conformance_level: profile.hybrid.conformanceLevel }
          : null,
        rule_sets: profile.ruleSets,
        required_fields: profile.requiredFields,
        request_object: requestObjectOf(profile),
      };
    }),
  };
}

/** The llms.txt paragraph on the profiles. */
export const E_INVOICE_PROFILES_NOTE = `E-invoices (POST /v1/e-invoice/cii.xml, ubl.xml, factur-x.pdf; free check at POST /v1/e-invoice/validate) take an optional top-level "profile": ${profileList((profile) => profile.blurb)}. The national fields: seller/buyer electronic_address { scheme, id } (BT-34/BT-49), legal_registration { scheme, id } (BT-30), business_process (BT-23), delivery_date (BT-72), invoicing_period (BG-14), legal_notes (France PMT/PMD/AAB); for Peppol PINT and Croatia (docs/e-invoices-pint.md) seller/buyer tax_registration_number (ABN, NZ GST, SG GST/UEN, JP T-number, MY TIN, UAE TRN; check digits checked), tax_currency { code, exchange_rate } (BT-6, BT-111), line tax_code and item_classification, country_subdivision, tax_exemption_code, issue_time, operator { name, oib }. A national rule that fails is a 400 einvoice_rules_failed naming each rule id and field, never charged; GET /v1/schema lists the fields each profile requires.`;

/** llms.txt's paragraphs on reading and printing a format's received documents (its docs.reading). */
export const E_INVOICE_READING_NOTES: readonly string[] = FORMATS.flatMap((format) =>
  'reading' in format.docs ? [format.docs.reading] : [],
);
