import { lateFeeOperation } from './lateFee/operation.js';
import type { JsonOperation } from './operation.js';
import { paymentTermsOperation } from './paymentTerms/operation.js';
import { reminderDraftOperation } from './reminderDraft/operation.js';
import { timesheetOperation } from './timesheet/operation.js';

/** The four free-standing JSON helpers in the order the docs list them. */
export const HELPER_OPERATIONS: readonly JsonOperation[] = [
  reminderDraftOperation,
  lateFeeOperation,
  paymentTermsOperation,
  timesheetOperation,
];

export { lateFeeOperation, paymentTermsOperation, reminderDraftOperation, timesheetOperation };
