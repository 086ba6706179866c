import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDiskFull } from "../db/disk-full.ts";
import { AppError, DISK_FULL, TooManyRequestsError } from "../errors.ts";
import type { AppEnv } from "./types.ts";

/** The one error shape of the API. `error` is the sentence a person reads. */
export interface ErrorBody {
  error: string;
  code: string;
  fields?: Record<string, string>;
  /** 409 duplicate_broadcast: the broadcast this publish would repeat (DuplicateBroadcastError). */
  duplicateOf?: number;
}

export function errorJson(c: Context, status: ContentfulStatusCode, code: string, error: string, fields?: Record<string, string>) {
  const body: ErrorBody = fields ? { error, code, fields } : { error, code };
  return c.json(body, status);
}

/** The one mapping from a thrown error to an answer. An unexpected error gets one line in the log. */
export function onError(err: Error, c: Context<AppEnv>) {
  if (err instanceof TooManyRequestsError) c.header("Retry-After", String(err.retryAfterSeconds));
  const { status, body } = answerTo(err, c);
  return c.json(body, status);
}

/**
 * The status and body a thrown error answers with; also the last line of an answer already streaming (the CSV
 * import), where the status can no longer change.
 */
export function answerTo(err: Error, c: Context<AppEnv>): { status: ContentfulStatusCode; body: ErrorBody } {
  if (err instanceof AppError) {
    const duplicateOf = (err as { duplicateOf?: unknown }).duplicateOf;
    if (typeof duplicateOf === "number") return { status: err.status, body: { error: err.message, code: err.code, duplicateOf } };
    return { status: err.status, body: err.fields ? { error: err.message, code: err.code, fields: err.fields } : { error: err.message, code: err.code } };
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    if (status === 413) return { status, body: { error: "Request body is too large.", code: "payload_too_large" } };
    return { status, body: { error: err.message || "The request could not be processed.", code: "http_error" } };
  }
  if (isDiskFull(err)) {
    c.var.ctx?.logger.error(`${c.req.method} ${c.req.path} refused: the disk is full or read-only`);
    return { status: 507, body: { error: DISK_FULL, code: "disk_full" } };
  }
  // Unexpected: log the kind and message only (no stack, no request data), on one line, answer without details.
  const message = String(err.message).replace(/\s+/g, " ").slice(0, 500);
  c.var.ctx?.logger.error(`${c.req.method} ${c.req.path} failed: ${err.name}: ${message}`);
  return { status: 500, body: { error: "Something went wrong on our side. Please try again.", code: "internal" } };
}
