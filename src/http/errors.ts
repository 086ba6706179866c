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
  if (err instanceof AppError) {
    if (err instanceof TooManyRequestsError) c.header("Retry-After", String(err.retryAfterSeconds));
    const duplicateOf = (err as { duplicateOf?: unknown }).duplicateOf;
    if (typeof duplicateOf === "number") return c.json({ error: err.message, code: err.code, duplicateOf } satisfies ErrorBody, err.status);
    return errorJson(c, err.status, err.code, err.message, err.fields);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    if (status === 413) return errorJson(c, 413, "payload_too_large", "Request body is too large.");
    return errorJson(c, status, "http_error", err.message || "The request could not be processed.");
  }
  if (isDiskFull(err)) {
    c.var.ctx?.logger.error(`${c.req.method} ${c.req.path} refused: the disk is full or read-only`);
    return errorJson(c, 507, "disk_full", DISK_FULL);
  }
  // Unexpected: log the kind and message only (no stack, no request data), on one line, answer without details.
  const message = String(err.message).replace(/\s+/g, " ").slice(0, 500);
  c.var.ctx?.logger.error(`${c.req.method} ${c.req.path} failed: ${err.name}: ${message}`);
  return errorJson(c, 500, "internal", "Something went wrong on our side. Please try again.");
}
