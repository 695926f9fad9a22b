import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { ReminderDraft } from './schema.js';

/**
 * The reminder texts live in templates/reminder/<tone>.hbs so they can be edited like the invoice
 * template. Each renders "Subject: …", an empty line, then the body (see the comment at the top of
 * each file). They are read and compiled once, at first use.
 *
 * Compiled with noEscape: the output is plain text answered inside JSON, never placed into HTML, so
 * HTML-escaping would only corrupt names like "Smith & Sons". strict makes a misspelt variable in
 * a template throw instead of silently printing nothing.
 */
type Tone = ReminderDraft['tone'];

export interface ReminderView {
  client_name: string;
  from_name: string;
  invoice_number: string;
  amount: string;
  due_date: string;
  upcoming: boolean;
  due_today: boolean;
  overdue: boolean;
  days_until_due: string;
  days_overdue: string;
  payment_link: string | null;
}

const TEMPLATE_FOLDER = new URL('../../../templates/reminder/', import.meta.url);
const SUBJECT_THEN_BODY = /^Subject: ([^\n]*)\n\n([\s\S]*)$/;

const handlebars = Handlebars.create();
const compiled = new Map<Tone, Handlebars.TemplateDelegate<ReminderView>>();

function templateFor(tone: Tone): Handlebars.TemplateDelegate<ReminderView> {
  let template = compiled.get(tone);
  if (!template) {
    const source = readFileSync(new URL(`${tone}.hbs`, TEMPLATE_FOLDER), 'utf8');
    template = handlebars.compile<ReminderView>(source, { noEscape: true, strict: true });
    compiled.set(tone, template);
  }
  return template;
}

export function renderReminder(tone: Tone, view: ReminderView): { subject: string; body: string } {
  const match = SUBJECT_THEN_BODY.exec(templateFor(tone)(view));
  if (!match) throw new Error(`templates/reminder/${tone}.hbs must render "Subject: …", an empty line, then the body`);
  const [, subject = '', body = ''] = match;
  return { subject: subject.trim(), body: body.trimEnd() };
}
