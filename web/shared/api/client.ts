// The only caller of fetch in the UI. Adds the bearer token and the XSRF header, and turns every failure into an
// ApiError with the HTTP status (0 when the server could not be reached) and the server's message.
import { CONNECTION_ERROR } from "../../../src/schemas/texts.ts";

export const TOKEN_KEY = "token";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
  /** The field errors of a 400, keyed by field name. */
  get fields(): Record<string, string> {
    const b = this.body as { fields?: Record<string, string> } | null;
    return b?.fields ?? {};
  }
}

export { CONNECTION_ERROR };

function readCookie(name: string): string | undefined {
  const match = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return match ? decodeURIComponent(match.slice(name.length + 1)) : undefined;
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** The text a person should read from a failed response body. */
export function serverMessage(body: unknown): string | undefined {
  if (typeof body === "string") return body.trim() || undefined;
  if (body && typeof body === "object") {
    const b = body as { error?: unknown; message?: unknown };
    if (typeof b.error === "string") return b.error;
    if (typeof b.message === "string") return b.message;
  }
  return undefined;
}

/** The session's headers for a call: the bearer token, and on a write the XSRF token echoing the cookie. */
export function sessionHeaders(method: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: "application/json" };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== "GET" && method !== "HEAD") {
    const xsrf = readCookie("XSRF-TOKEN");
    if (xsrf) headers["X-XSRF-TOKEN"] = xsrf;
  }
  return headers;
}

/** The error of a refused call: the server's sentence (or the status text) and its body. */
export async function refusal(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => "");
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // A plain-text body (a proxy's error page, a bare sentence) stays a string for serverMessage to judge.
  }
  return new ApiError(res.status, serverMessage(parsed) ?? res.statusText, parsed);
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers = sessionHeaders(method);
  let payload: BodyInit | undefined;
  if (body instanceof FormData || body instanceof URLSearchParams) payload = body;
  else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: "same-origin" });
  } catch {
    throw new ApiError(0, CONNECTION_ERROR, null);
  }
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // A plain-text body (a proxy's error page, a bare sentence) stays a string for serverMessage to judge.
  }
  if (!res.ok) throw new ApiError(res.status, serverMessage(parsed) ?? res.statusText, parsed);
  return parsed as T;
}

/**
 * A file only the signed-in owner may read (a customer's reply's picture): an <img> cannot send the bearer token, so
 * it is fetched here and shown from an object URL.
 */
export async function requestBlob(path: string): Promise<Blob> {
  let res: Response;
  try {
    res = await fetch(path, { method: "GET", headers: sessionHeaders("GET"), credentials: "same-origin" });
  } catch {
    throw new ApiError(0, CONNECTION_ERROR, null);
  }
  if (!res.ok) throw await refusal(res);
  return new Response(res.body).blob();
}

export const api = {
  get: <T>(path: string) => request<T>("GET", path),
  post: <T>(path: string, body?: unknown) => request<T>("POST", path, body ?? {}),
  put: <T>(path: string, body?: unknown) => request<T>("PUT", path, body ?? {}),
  del: <T>(path: string) => request<T>("DELETE", path),
};

/** An id as a query parameter's value. */
export const idParam = (id: number | string) => encodeURIComponent(String(id));

/** Rows per page of the smaller paged lists (businesses, business types). */
export const LIST_PAGE_SIZE = 24;

/** A paged list's query string: the filters given (empty ones left out), then the cursor of the page wanted. */
export function listQuery(params: Record<string, string | number | null | undefined>, cursor: string | null): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== null && value !== undefined && value !== "") query.set(key, String(value));
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}
