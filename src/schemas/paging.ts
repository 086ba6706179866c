// The server-paged lists (issue 12): GET /api/.../List* next to the spec's GetAll*. Each walks an index from a
// keyset cursor (the sort key of the last row shown), so rows added meanwhile never shift a page as OFFSET would.
// Shared with web/.
import type { FieldErrors } from "./check.ts";
import { ID_TEXT } from "./ids.ts";

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;
export const LIMIT_INVALID = `limit must be a whole number from 1 to ${PAGE_LIMIT_MAX}`;
export const CURSOR_INVALID = "cursor is not one this list gave out; start again without it";

/** One page of a list. */
export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
  /** Rows matching the filters, across all pages. */
  total: number;
}

/** Where a page starts: after the row with this sort key (a text or a number) and id. */
export interface Keyset<K extends string | number = string | number> {
  key: K;
  id: number;
}

/** A cursor is the last row's keyset, opaque to clients: base64url of JSON [key, id]. */
export function encodeCursor(after: Keyset): string {
  return Buffer.from(JSON.stringify([after.key, after.id])).toString("base64url");
}

const MAX_CURSOR = 600;

function decodeCursor(raw: string, keyType: "string" | "number"): Keyset | null {
  if (raw.length > MAX_CURSOR || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, "base64url").toString());
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [key, id] = value as [unknown, unknown];
  if (typeof key !== keyType || (keyType === "number" && !Number.isSafeInteger(key))) return null;
  if (typeof id !== "number" || !ID_TEXT.test(String(id))) return null;
  return { key: key as string | number, id };
}

export interface PageParams<K extends string | number> {
  after: Keyset<K> | null;
  limit: number;
}

/**
 * `cursor` and `limit` of a query string, each bad value named in `errors` by its field. `keyType` is the type of the
 * list's sort key (a name, or a number such as an id or a time), so a cursor of another list is refused.
 */
export function checkPageParams<K extends string | number>(
  q: Record<string, string | undefined>,
  keyType: K extends string ? "string" : "number",
  errors: FieldErrors,
): PageParams<K> {
  let after: Keyset<K> | null = null;
  if (q.cursor !== undefined && q.cursor !== "") {
    after = decodeCursor(q.cursor, keyType) as Keyset<K> | null;
    if (after === null) errors.cursor = CURSOR_INVALID;
  }
  let limit = PAGE_LIMIT_DEFAULT;
  if (q.limit !== undefined && q.limit !== "") {
    limit = /^\d{1,3}$/.test(q.limit) ? Number(q.limit) : 0;
    if (limit < 1 || limit > PAGE_LIMIT_MAX) errors.limit = LIMIT_INVALID;
  }
  return { after, limit };
}

/** The page from `limit + 1` rows read: the extra row only says there is a next page. */
export function pageOf<R, T>(rows: R[], limit: number, keyset: (row: R) => Keyset, total: number, view: (rows: R[]) => T[]): Page<T> {
  const shown = rows.slice(0, limit);
  return { items: view(shown), nextCursor: rows.length > limit ? encodeCursor(keyset(shown.at(-1)!)) : null, total };
}

export const NAME_SEARCH_INVALID = "q must be at most 100 characters";

/** A name search (`q`): trimmed text, or null for none. */
export function checkNameSearch(q: Record<string, string | undefined>, errors: FieldErrors): string | null {
  const text = q.q?.trim() ?? "";
  if (text.length > 100) errors.q = NAME_SEARCH_INVALID;
  return text === "" ? null : text;
}

/** A list sorted by name: its `cursor` and `limit` (checkPageParams) and its name search `q`, errors in that order. */
export function checkNamePageParams(q: Record<string, string | undefined>, errors: FieldErrors): PageParams<string> & { search: string | null } {
  const params = checkPageParams<string>(q, "string", errors);
  return { ...params, search: checkNameSearch(q, errors) };
}

/** The keyset of a row in a list sorted by name. */
export const nameKeyset = (row: { name: string; id: number }): Keyset => ({ key: row.name, id: row.id });
