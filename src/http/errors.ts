import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { AppError, TooManyRequestsError } from "../errors.ts";
import type { AppEnv } from "./types.ts";

/** The one error shape of the API. `error` is the sentence a person reads. */
export interface ErrorBody {
  error: string;
  code: string;
  fields?: Record<string, string>;
}

export function errorJson(c: Context, status: ContentfulStatusCode, code: string, error: string, fields?: Record<string, string>) {
  const body: ErrorBody = fields ? { error, code, fields } : { error, code };
  return c.json(body, status);
}

/** What an error turns into on the wire: status, the one body shape, and Retry-After for a 429. */
export interface ErrorReply {
  status: ContentfulStatusCode;
  body: ErrorBody;
  retryAfter?: number;
}

/**
 * The one mapping from a thrown error to an answer, for the Hono app (onError) and the routes Bun.serve answers
 * itself (routes/subscription.ts). `log` gets one line for an unexpected error.
 */
export function errorReply(err: unknown, method: string, path: string, log: ((line: string) => void) | undefined): ErrorReply {
  const reply = (status: ContentfulStatusCode, code: string, error: string, fields?: Record<string, string>): ErrorReply => ({
    status,
    body: fields ? { error, code, fields } : { error, code },
  });
  if (err instanceof AppError) {
    const r = reply(err.status, err.code, err.message, err.fields);
    if (err instanceof TooManyRequestsError) r.retryAfter = err.retryAfterSeconds;
    return r;
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    if (status === 413) return reply(413, "payload_too_large", "Request body is too large.");
    return reply(status, "http_error", err.message || "The request could not be processed.");
  }
  // Unexpected: log the kind and message only (no stack, no request data), on one line, answer without details.
  const e = err instanceof Error ? err : new Error(String(err));
  const message = String(e.message).replace(/\s+/g, " ").slice(0, 500);
  log?.(`${method} ${path} failed: ${e.name}: ${message}`);
  return reply(500, "internal", "Something went wrong on our side. Please try again.");
}

export function onError(err: Error, c: Context<AppEnv>) {
  const r = errorReply(err, c.req.method, c.req.path, c.var.ctx ? (line) => c.var.ctx.logger.error(line) : undefined);
  if (r.retryAfter !== undefined) c.header("Retry-After", String(r.retryAfter));
  return c.json(r.body, r.status);
}
