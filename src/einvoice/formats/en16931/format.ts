import { defineFormat } from '../format.js';
import { CEN_RULE_SET, EN16931_SPECIFICATION } from '../identifiers.js';

/** EN 16931 alone: the default profile, and what every received document is read as at least. */
export const en16931 = defineFormat({
  id: 'en16931',
  title: 'EN 16931',
  blurb: 'default; EN 16931 alone',
  writes: ['cii', 'ubl', 'factur-x'],
  specification: EN16931_SPECIFICATION,
  hybrid: { fileName: 'factur-x.xml', conformanceLevel: 'EN 16931' },
  ruleSets: [CEN_RULE_SET],
  requiredFields: [],
  docs: {
    whatYouGet: 'EN 16931 alone, the output of a request without `profile`, byte for byte',
    formats: 'CII, UBL, Factur-X',
    businessProcess: 'only when `business_process` is given',
  },
});
