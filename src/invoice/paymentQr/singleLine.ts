/**
 * One line of text without control characters: every payload is line- or field-based. Its own
 * file because both the request schema and the code builders (which read the schema's types) use it.
 */
export const SINGLE_LINE = /^[^\u0000-\u001F\u007F-\u009F]*$/u;

export function isSingleLine(value: string): boolean {
  return SINGLE_LINE.test(value);
}
