import type { Rule } from '../../rules.js';
import { germanRules } from '../germanRules.js';
import { electronicAddress } from '../ruleHelpers.js';

/** KoSIT XRechnung 3.0.2 (BR-DE-*) with the Peppol rules KoSIT merges (PEPPOL-EN16931-R010, R020). */
export const XRECHNUNG_RULES: readonly Rule[] = [
  ...germanRules(
    (n) => `BR-DE-${n}`,
    () => true,
  ),
  electronicAddress('PEPPOL-EN16931-R020', 'seller', 'BT-34'),
  electronicAddress('PEPPOL-EN16931-R010', 'buyer', 'BT-49'),
];
