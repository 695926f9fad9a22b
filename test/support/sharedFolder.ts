import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * ../shared/einvoice beside the checkout: the official e-invoice artefacts (schematron, XSDs,
 * check-xml) and corpora (examples of the ministries, OpenPeppol, ZUGFeRD). They are not part of
 * the project, so a newcomer's clone lacks them: the tests that read them skip, all with the one
 * reason below, which `npm test` counts at its end (scripts/test.mjs). CI has the folder.
 */
export const SHARED_EINVOICE = join(import.meta.dirname, '..', '..', '..', 'shared', 'einvoice');

export const SHARED_ABSENT = `../shared/einvoice (the official e-invoice artefacts and corpora) is not beside this checkout, or lacks what the test reads`;

/** node:test's `skip` for a test that reads `paths` under ../shared/einvoice: false when they are all there. */
export const needsShared = (...paths: string[]): false | string =>
  paths.every((path) => existsSync(join(SHARED_EINVOICE, path))) ? false : SHARED_ABSENT;
