// The one CSV writer (RFC 4180): the consent export over HTTP and `nearcast customers consent --csv` both use it, so
// a spreadsheet gets the same bytes from either.

/** Cells that a spreadsheet would run as a formula ("CSV injection"): the text a person typed ends up in them. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: null as empty; text that starts like a formula gets a leading apostrophe (shown as text, not run);
 * quoted when it holds a comma, a quote, a line break or edge spaces, quotes doubled.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

type CsvRow = readonly (string | number | null | undefined)[];

/** Records, each ended by CRLF (RFC 4180): a piece of a file written a part at a time. */
export function csvRecords(rows: readonly CsvRow[]): string {
  return rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");
}

/** A header row and the data rows, CRLF between records (RFC 4180), one after the last. */
export function toCsv(header: readonly string[], rows: readonly CsvRow[]): string {
  return csvRecords([header, ...rows]);
}
