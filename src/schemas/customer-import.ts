// The Customers screen's CSV import (POST /api/customer/ImportCustomers): its limits and refusals, and the lines of
// its answer. Shared with web/.

/** The file's size cap (a 50,000-row file is about 1.5 MB). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 100_000;
export const IMPORT_TOO_LARGE = "The CSV file must be 5 MB or smaller.";
export const IMPORT_NO_ROWS = "The file has no rows to import.";
// Grouped by hand, not with toLocaleString: this runs as every process starts, and ICU's number data would load with it.
export const IMPORT_TOO_MANY_ROWS = `A file can hold at most ${String(IMPORT_MAX_ROWS).replace(/\B(?=(\d{3})+$)/g, ",")} rows; split it in two.`;
export const IMPORT_WRONG_TYPE = "Upload a CSV file (text/csv).";

/** What an import did, row by row (the CLI prints it; the screen shows it). */
export interface ImportSummary {
  business: { id: number; name: string };
  added: { line: number; phone: string }[];
  readded: { line: number; phone: string }[];
  already: { line: number; phone: string }[];
  skipped: { line: number; phone: string; reason: string }[];
  /** `value`: what the row held that was refused (the phone, or the contact preference), as written in the file. */
  invalid: { line: number; message: string; value: string }[];
  /** With "send a welcome text": how many confirmations were queued (one Confirmation broadcast, paced). */
  welcomed?: number;
}

/**
 * The answer streams one JSON object per line (application/x-ndjson): progress after each chunk written, then the
 * summary, or an error if the import stopped half-way (what was written stays; importing the file again completes it).
 */
export type ImportLine = { progress: { done: number; total: number } } | { summary: ImportSummary } | { error: string; code: string };
