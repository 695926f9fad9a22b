import * as v from 'valibot';
import { AppError, InputRejected, validationFailed } from '../errors.js';
import { DESIGNS } from '../invoice/designFields.js';
import { parseOrReject } from '../invoice/issues.js';
import { prepareInvoice, type PreparedInvoice } from '../invoice/prepareInvoice.js';
import { InvoiceSchema } from '../invoice/schema.js';
import { resolveStoredLook } from '../themes/storedThemes.js';
import { builtinPackage } from '../render/builtinPackages.js';
import { examineForPreview, examinePackage } from '../templates/checkPackage.js';
import { REFERENCE_INVOICES } from '../templates/contract/referenceInvoices.js';
import {
  getTemplate,
  parseTemplatePackage,
  putTemplate,
  resolveDesignReference,
  TEMPLATE_TTL_SECONDS,
  templateIncomplete,
  templateInvalid,
} from '../templates/storedTemplates.js';
import { prepareReferencesAhead } from '../templates/contract/referenceInvoices.js';
import { checkSeenContract } from '../templates/contract/seenContract.js';
import type { TemplateIssue } from '../templates/templateIssue.js';
import {
  isTemplateRef,
  storedForm,
  templateId,
  TemplatePackageSchema,
  type TemplatePackage,
} from '../invoice/templatePackage.js';
import { renderingUnavailable } from './invoiceOperations.js';
import type { LookStores } from './lookResolvers.js';
import { loadPackageFonts } from '../templates/packageFonts.js';
import type { PackageFonts } from '../invoice/templatePackage.js';
import type { Operation, PdfRenderer } from './operation.js';

const EXAMPLE_PACKAGE: TemplatePackage = {
  css: '.masthead h1 { letter-spacing: 0.08em; text-transform: uppercase; }\n.invoice { font-size: 10pt; }',
};

/** POST /v1/templates/preview: a stored design's id or a package, and the invoice to print with it. */
const PreviewSchema = v.strictObject(
  {
    design: v.union(
      [v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/)), TemplatePackageSchema],
      'must be a stored design\'s id "sha256:…" or a package',
    ),
    invoice: InvoiceSchema,
  },
  'is not a preview field (design, invoice)',
);
type PreviewInput = { prepared: PreparedInvoice; design: TemplatePackage | string };

/** A package and the report of the checks the compute pool ran on it (checkPackage.ts). */
type ExaminedPackage = { pkg: TemplatePackage; invalid: TemplateIssue[]; incomplete: TemplateIssue[] };

/**
 * A preview's body: an inline package is checked as PUT checks its files and filled with this one
 * invoice (not the 12 reference invoices: checkPackage.ts examineForPreview); this invoice's facts
 * are then checked on the printed page, as for every stored design.
 */
function parsePreview(body: unknown): PreviewInput {
  const { design } = parseOrReject(PreviewSchema, body);
  const prepared = prepareInvoice((body as { invoice: unknown }).invoice);
  if (typeof design === 'string') return { prepared, design };
  const pkg = storedForm(design);
  const invalid = examineForPreview(pkg, prepared);
  if (invalid.length > 0) throw templateInvalid(invalid);
  return { prepared, design: pkg };
}

/** The contract's look at the laid-out pages (seenContract.ts): what the text's check cannot see. */
function lookAtFacts(
  renderer: PdfRenderer | undefined,
  pkg: TemplatePackage,
  fonts: PackageFonts,
): Promise<TemplateIssue[]> {
  const look = renderer?.designUnseenFacts?.bind(renderer);
  if (!look) throw renderingUnavailable();
  return checkSeenContract(look, pkg, fonts);
}

/** lookAtFacts with this renderer; the reference invoices are prepared ahead when it can look. */
function factsLooker(renderer: PdfRenderer | undefined) {
  if (renderer?.designUnseenFacts) prepareReferencesAhead();
  return (pkg: TemplatePackage, fonts: PackageFonts) => lookAtFacts(renderer, pkg, fonts);
}

/** The previewed invoice with its design: a stored one looked up, or the inline package with its fonts. */
async function withPreviewedDesign(
  stores: LookStores,
  prepared: PreparedInvoice,
  design: TemplatePackage | string,
): Promise<PreparedInvoice> {
  if (typeof design === 'string')
    return resolveDesignReference(stores.templates, stores.fonts, {
      ...prepared,
      invoice: { ...prepared.invoice, design },
    });
  const fonts = await loadPackageFonts(stores.fonts, design, (field) => `design.fonts.${field}`);
  return { ...prepared, design: { id: templateId(design), package: design, fonts } };
}

/**
 * The stored fonts a package names, for PUT and check alike: a font id nobody stored (or that
 * expired) is a 400 at fonts.<family> (or fonts.<family>.bold), nothing stored, whatever else a
 * check would report: the package could never be stored or printed.
 */
const storedFontsOf = (stores: LookStores, pkg: TemplatePackage) =>
  loadPackageFonts(stores.fonts, pkg, (field) => `fonts.${field}`);

/**
 * Designs of one's own (docs/templates.md): the built-in designs as packages, the checks, a free
 * preview, and PUT/GET of stored packages. All free; PUT is the one MCP tool (v1_templates_put).
 */
export function templateOperations(stores: LookStores, renderer: PdfRenderer | undefined): Operation[] {
  const store = stores.templates;
  const hiddenFacts = factsLooker(renderer);
  const builtins = DESIGNS.map((name): Operation => ({
    method: 'GET',
    path: `/v1/templates/${name}`,
    operationId: `v1_templates_${name}`,
    summary: `The built-in ${name} design as a package (free)`,
    description: `The ${name} design as a package to start a design of your own from: html (the page template), css (its design.css), partials (every partial it uses, name → Handlebars source) and data_version. PUT it, changed, to /v1/templates.`,
    tag: 'Templates',
    response: { contentType: 'application/json', description: 'The package.' },
    handle: () => ({ body: builtinPackage(name) }),
  }));

  const put: Operation<TemplatePackage> = {
    method: 'PUT',
    path: '/v1/templates',
    operationId: 'v1_templates_put',
    summary: 'Store a design package and get its id (free)',
    description: `Kept ${TEMPLATE_TTL_SECONDS / 86400} days; use as "design": "<id>". 400 template_invalid or template_incomplete (docs/templates.md).`,
    tag: 'Templates',
    mcpTool: true,
    request: { schema: TemplatePackageSchema, example: EXAMPLE_PACKAGE, parse: parseTemplatePackage },
    response: {
      contentType: 'application/json',
      description: 'The design id and how long it is kept.',
      example: { id: 'sha256:…', expires_in_seconds: TEMPLATE_TTL_SECONDS },
    },
    handle: async (pkg) => {
      if (!store) throw new Error('v1_templates_put has no template store');
      const fonts = await storedFontsOf(stores, pkg);
      const hidden = await hiddenFacts(pkg, fonts);
      if (hidden.length > 0) throw templateIncomplete(hidden);
      return { body: await putTemplate(store, pkg) };
    },
  };

  const get: Operation = {
    method: 'GET',
    path: '/v1/templates/{id}',
    operationId: 'v1_templates_get',
    summary: 'A stored design package by its id (free)',
    description:
      'The package PUT /v1/templates stored under this id ("sha256:…"); 404 not_found when it is unknown or expired.',
    tag: 'Templates',
    response: { contentType: 'application/json', description: 'The stored package.' },
    handle: async (_input, { params }) => {
      const id = params?.id ?? '';
      const pkg = isTemplateRef(id) ? await getTemplate(store, id) : undefined;
      if (!pkg)
        throw new AppError('not_found', `No stored design ${id.slice(0, 80)}: PUT its package to /v1/templates.`);
      return { body: pkg };
    },
  };

  const check: Operation<ExaminedPackage> = {
    method: 'POST',
    path: '/v1/templates/check',
    operationId: 'v1_templates_check',
    summary: 'Check a design package without storing it (free)',
    description:
      'The checks of PUT /v1/templates, answered as a report: { ok, id, issues } with the invalid and incomplete issues together (nothing is stored).',
    tag: 'Templates',
    request: {
      schema: TemplatePackageSchema,
      example: EXAMPLE_PACKAGE,
      // The text's checks on the compute pool; the look at the laid-out pages (handle) when they pass.
      parse: (body) => {
        const pkg = storedForm(parseOrReject(TemplatePackageSchema, body));
        return { pkg, ...examinePackage(pkg) };
      },
    },
    response: { contentType: 'application/json', description: 'The report.' },
    handle: async ({ pkg, invalid, incomplete }) => {
      const [fonts, issues] = [await storedFontsOf(stores, pkg), [...invalid, ...incomplete]];
      if (issues.length === 0) issues.push(...(await hiddenFacts(pkg, fonts)));
      return { body: { ok: issues.length === 0, id: templateId(pkg), issues } };
    },
  };

  const references: Operation = {
    method: 'GET',
    path: '/v1/templates/reference-invoices',
    operationId: 'v1_templates_reference_invoices',
    summary: "The content contract's reference invoices (free)",
    description:
      'The invoices every design is filled with before it is stored; each page must show every fact the built-in designs show. [{ id, title, invoice }].',
    tag: 'Templates',
    document: true,
    response: { contentType: 'application/json', description: 'The reference invoices.' },
    handle: () => ({ body: REFERENCE_INVOICES }),
  };

  const preview: Operation<PreviewInput> = {
    method: 'POST',
    path: '/v1/templates/preview',
    operationId: 'v1_templates_preview',
    summary: 'Preview an invoice in a design, PREVIEW on every page (free)',
    description:
      'Prints the invoice with a stored design ("design": "sha256:…") or a package given inline (checked as PUT checks it), with PREVIEW across every page and along its foot; at most 10 pages. Free and rate-limited: a preview is never an invoice.',
    tag: 'Templates',
    request: {
      schema: PreviewSchema,
      example: { design: EXAMPLE_PACKAGE, invoice: REFERENCE_INVOICES[0]!.invoice },
      parse: parsePreview,
    },
    response: { contentType: 'application/pdf', description: 'The preview PDF.' },
    async handle({ prepared, design }, { signal }) {
      if (!renderer) throw renderingUnavailable();
      // The invoice's stored theme and brand fonts, as POST /v1/invoice.pdf looks them up (the
      // studio previews its uploaded fonts so): an unknown id is a 400 at invoice.theme…, not a 502.
      const looked = await resolveStoredLook(stores.themes, stores.fonts, prepared).catch((error: unknown) => {
        if (!(error instanceof InputRejected)) throw error;
        throw validationFailed((error.issues ?? []).map((issue) => ({ ...issue, path: `invoice.${issue.path}` })));
      });
      const { pdf, pages } = await renderer.renderPdf(await withPreviewedDesign(stores, looked, design), {
        signal,
        preview: true,
      });
      return {
        contentType: 'application/pdf',
        headers: { 'Content-Disposition': 'inline; filename="preview.pdf"', 'X-Page-Count': String(pages) },
        body: pdf,
      };
    },
  };

  return [...builtins, references, check, preview, put, get];
}
