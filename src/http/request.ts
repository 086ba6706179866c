import type { Context } from "hono";
import { AppError, PayloadTooLargeError, ValidationError } from "../errors.ts";
import type { AppEnv } from "./types.ts";

/** The cap on JSON request bodies (the app's bodyLimit middleware and readJsonRequest). */
export const JSON_BODY_LIMIT = 64 * 1024;

/** 415 unless the Content-Type is application/json, optionally with parameters (not "application/jsonp" or the like). */
export function requireJsonContentType(type: string | null | undefined): void {
  if (!/^application\/json\s*(;|$)/i.test((type ?? "").trim())) {
    throw new AppError(415, "unsupported_media_type", "Content-Type must be application/json.");
  }
}

/** The parsed body when it is a JSON object, else the 400. */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ValidationError("Request body must be a JSON object.");
  }
  return body as Record<string, unknown>;
}

const INVALID_JSON = "Request body must be valid JSON.";

/** A JSON object body, or a 4xx naming what is wrong with it. */
export async function readJson(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  requireJsonContentType(c.req.header("content-type"));
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ValidationError(INVALID_JSON);
  }
  return jsonObject(body);
}

/**
 * readJson for a plain Request (the routes Bun.serve answers without Hono), with the API's body cap applied the way
 * the app's bodyLimit middleware applies it: a declared Content-Length over the cap is refused unread, a body without
 * one is counted while it streams in; either way 413 before the Content-Type (415) and the JSON (400) are looked at.
 */
export async function readJsonRequest(req: Request, maxBytes: number): Promise<Record<string, unknown>> {
  let read: () => Promise<unknown> = () => req.json();
  // The declared length first: touching req.body makes Bun build a ReadableStream, which costs more than the rest of
  // the check (and then json() has to go through it).
  const length = req.headers.get("content-length");
  if (length !== null && !req.headers.has("transfer-encoding")) {
    if (Number.parseInt(length || "0", 10) > maxBytes) throw new PayloadTooLargeError();
  } else if (req.body) {
    const bytes = await readCapped(req.body, maxBytes);
    read = () => new Response(bytes).json();
  }
  requireJsonContentType(req.headers.get("content-type"));
  let body: unknown;
  try {
    body = await read();
  } catch {
    throw new ValidationError(INVALID_JSON);
  }
  return jsonObject(body);
}

async function readCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      throw new PayloadTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size) as Buffer<ArrayBuffer>;
}

/** A positive integer query parameter such as ?id=12. */
export function queryId(c: Context<AppEnv>, name = "id"): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === "") throw new ValidationError(`The ${name} parameter is required.`, { [name]: "required" });
  if (!/^[1-9]\d{0,15}$/.test(raw)) {
    throw new ValidationError(`The ${name} parameter must be a positive whole number.`, { [name]: "invalid" });
  }
  return Number(raw);
}

/**
 * The address rate limits are keyed on. Behind a trusted proxy it is the LAST X-Forwarded-For entry: the one the
 * proxy itself appended. Earlier entries come from the client and are free text, so keying on the first one
 * would let anybody dodge the per-IP limits by sending a new made-up address each time.
 */
export function clientIp(c: Context<AppEnv>): string {
  return clientAddress(c.var.ctx.config.trustProxy, c.req.header("x-forwarded-for"), c.env?.requestIP?.(c.req.raw)?.address);
}

/** clientIp from its parts: whether a proxy is trusted, its X-Forwarded-For, and the socket's peer address. */
export function clientAddress(trustProxy: boolean, forwardedFor: string | null | undefined, peer: string | null | undefined): string {
  if (trustProxy) {
    const forwarded = forwardedFor?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return peer ?? "unknown";
}
