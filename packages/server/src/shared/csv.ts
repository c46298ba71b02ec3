/** CSV as spreadsheets read it (RFC 4180), for the exports (audit log, key history). */

/** RFC 4180 quoting; a leading =, +, - or @ is defused so a spreadsheet never runs a cell as a formula. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells. */
export const csvLine = (cells: unknown[]): string => cells.map(csvCell).join(',');
