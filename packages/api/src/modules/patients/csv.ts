import { PATIENT_EXPORT_COLUMNS, type Patient } from '@wellrest/core';

// CSV as RFC 4180 describes it (CRLF line ends, quoted fields), made safe to open in a
// spreadsheet: a cell a spreadsheet would run as a formula is prefixed with an apostrophe.

/** First characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: empty for a missing value, formula-neutralised, quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * The patients as a CSV file: a byte-order mark (so spreadsheet programs read UTF-8), the header
 * row, then one row per patient.
 */
export function patientsCsv(patients: readonly Patient[]): string {
  const lines = [csvRow(PATIENT_EXPORT_COLUMNS.map(([, header]) => header))];
  for (const patient of patients) lines.push(csvRow(PATIENT_EXPORT_COLUMNS.map(([field]) => patient[field])));
  return `\uFEFF${lines.join('')}`;
}
