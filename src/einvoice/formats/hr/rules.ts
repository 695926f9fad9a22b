import type { Rule } from '../../rules.js';
export const HR_RULES: readonly Rule[] = [];
