import { readSyntax } from '../../inbound/readSyntax.js';
import type { ReadOnlyFormat } from '../format.js';
import { ZUGFERD1_TABLE } from './binding.js';
import { withImpliedCategories } from './categories.js';

const NAMESPACE = 'urn:ferd:CrossIndustryDocument:invoice:1p0';

/**
 * ZUGFeRD 1.0 (2014), still common in German archives: read only (inspect and render.pdf), as a
 * XML document or a PDF embedding ZUGFeRD-invoice.xml. Its profile (BASIC, COMFORT, EXTENDED) is
 * the end of its guideline identifier, which the answer names (inbound/customizations.ts).
 */
export const zugferd1: ReadOnlyFormat = {
  id: 'zugferd1',
  title: 'ZUGFeRD 1.0',
  reader: {
    describe: 'a ZUGFeRD 1.0 CrossIndustryDocument',
    marker: NAMESPACE,
    recognises: (root) => root.ns === NAMESPACE && root.name === 'CrossIndustryDocument',
    read: (root) => withImpliedCategories(readSyntax(root, ZUGFERD1_TABLE)),
  },
};
