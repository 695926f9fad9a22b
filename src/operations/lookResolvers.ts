import type { PreparedBatch } from '../batch/batchRequest.js';
import { InputRejected, validationFailed, type Issue } from '../errors.js';
import type { PreparedInvoice } from '../invoice/prepareInvoice.js';
import { namesStoredDesign, resolveDesignReference } from '../templates/storedTemplates.js';
import type { FontStore } from '../themes/fontStore.js';
import { namesStoredLook as namesStoredTheme, resolveStoredLook } from '../themes/storedThemes.js';
import type { ThemeStore } from '../themes/themeStore.js';
import type { InputResolver } from './operation.js';

/** Where stored looks live: themes (PUT /v1/themes), fonts (PUT /v1/fonts) and designs (PUT /v1/templates). */
export interface LookStores {
  themes?: ThemeStore | undefined;
  fonts?: FontStore | undefined;
  templates?: ThemeStore | undefined;
}

const namesStoredLook = (prepared: PreparedInvoice): boolean =>
  namesStoredTheme(prepared) || namesStoredDesign(prepared);

/**
 * Both look-ups of one invoice: the theme with the fonts it names (main's resolveStoredLook) and
 * the design; every unknown id is an issue, all in one 400.
 */
async function resolveLook(stores: LookStores, prepared: PreparedInvoice): Promise<PreparedInvoice> {
  const issues: Issue[] = [];
  const rejectedAs = (error: unknown) => {
    if (!(error instanceof InputRejected)) throw error;
    issues.push(...(error.issues ?? []));
    return undefined;
  };
  const [themed, designed] = await Promise.all([
    resolveStoredLook(stores.themes, stores.fonts, prepared).catch(rejectedAs),
    resolveDesignReference(stores.templates, stores.fonts, prepared).catch(rejectedAs),
  ]);
  if (issues.length) throw validationFailed(issues);
  return {
    ...prepared,
    theme: themed?.theme ?? prepared.theme,
    fonts: themed?.fonts ?? prepared.fonts,
    design: designed?.design ?? prepared.design,
  };
}

/**
 * The look-up of an invoice's stored theme, the stored fonts its theme names, and its stored design
 * ("theme"/"design": "sha256:…") before anything about payment (operation.ts `request.resolve`): an
 * unknown id is a 400 at path "theme", "theme.<font field>" or "design", never charged.
 */
export function storedLookResolver(stores: LookStores): InputResolver<PreparedInvoice> {
  return { needed: namesStoredLook, resolve: (prepared) => resolveLook(stores, prepared) };
}

/**
 * The same look-ups for every invoice of a batch that names a stored look, before the 402: each
 * unknown id is an issue at `invoices[i].theme` or `invoices[i].design`, all listed in one 400.
 */
export function storedLookBatchResolver(stores: LookStores): InputResolver<PreparedBatch> {
  return {
    needed: (batch) => batch.invoices.some(namesStoredLook),
    async resolve(batch) {
      const issues: Issue[] = [];
      const invoices = await Promise.all(
        batch.invoices.map((prepared, index) =>
          resolveLook(stores, prepared).catch((error: unknown) => {
            if (!(error instanceof InputRejected)) throw error;
            issues.push(
              ...(error.issues ?? []).map((issue) => ({ ...issue, path: `invoices[${index}].${issue.path}` })),
            );
            return prepared;
          }),
        ),
      );
      if (issues.length) throw validationFailed(issues);
      return { ...batch, invoices };
    },
  };
}
