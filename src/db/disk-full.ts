// SQLite and the file system say "no room" in several ways; the HTTP layer answers all of them with one 507
// (src/http/errors.ts), and the dispatcher waits for space instead of failing deliveries.
const DISK_CODES = new Set(["SQLITE_FULL", "SQLITE_READONLY", "SQLITE_IOERR_WRITE", "ENOSPC", "EROFS", "EDQUOT"]);

/** Whether `err` means the disk is full or read-only (a write failed for lack of room, not because of the data). */
export function isDiskFull(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && (DISK_CODES.has(code) || code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_FULL"))) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === "string" && /database or disk is full|attempt to write a readonly database|ENOSPC|no space left on device/i.test(message);
}
