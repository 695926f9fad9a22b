import { daysBetween } from '../calendar.js';
import type { ReminderDraft } from './schema.js';

export type ReminderStatus = Pick<ReminderDraft, 'status' | 'days_overdue' | 'days_until_due'>;

export function reminderStatus(dueDate: string, asOf: string): ReminderStatus {
  const days = daysBetween(asOf, dueDate);
  if (days > 0) return { status: 'upcoming', days_overdue: 0, days_until_due: days };
  if (days === 0) return { status: 'due_today', days_overdue: 0, days_until_due: 0 };
  return { status: 'overdue', days_overdue: -days, days_until_due: 0 };
}
