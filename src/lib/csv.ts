/**
 * CSV as RFC 4180 writes it (comma separated, CRLF line ends, fields quoted when they hold a comma,
 * a quote or a line break, quotes doubled), made safe to open in a spreadsheet: a cell that starts
 * with = + - @ tab or carriage return would be read as a formula, so it gets a leading single quote.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | Date | null | undefined;

export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value);
  // Numbers are written by us (ids, counts) and are never formulas; text typed by people may be.
  if (typeof value !== 'number' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',');
}

/**
 * A whole document: header, then rows, every line ending in CRLF. Starts with a byte-order mark so
 * that spreadsheet programs read the UTF-8 (names with accents) correctly.
 */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return `\uFEFF${[header, ...rows].map((r) => `${csvRow(r)}\r\n`).join('')}`;
}
