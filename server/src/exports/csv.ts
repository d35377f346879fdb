/**
 * CSV as RFC 4180 writes it (comma, CRLF, quotes doubled inside quoted fields), with one addition for spreadsheets:
 * a text value that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so Excel,
 * LibreOffice and Sheets show it as text instead of running it as a formula (OWASP's CSV injection advice). Numbers,
 * booleans and dates are never prefixed: a negative number stays a number.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | Date | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, its line ending included. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
