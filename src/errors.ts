// Services throw these; the HTTP layer maps them to one JSON shape { error, code, fields? },
// the CLI prints the message. Nothing else reaches a user.
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 502 | 507,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export class ValidationError extends AppError {
  constructor(message: string, fields?: Record<string, string>) {
    super(400, "validation_failed", message, fields);
  }
}

/** A 400 naming every bad field (its first message as the answer's), when `errors` has any. */
export function throwIfInvalid(errors: Record<string, string>): void {
  const first = Object.values(errors)[0];
  if (first !== undefined) throw new ValidationError(first, errors);
}

export class UnauthorizedError extends AppError {
  constructor(message = "Please log in to continue.") {
    super(401, "unauthorized", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You do not have permission to do this.") {
    super(403, "forbidden", message);
  }
}

export class NotFoundError extends AppError {
  constructor(message = "Not found.") {
    super(404, "not_found", message);
  }
}

export class ConflictError extends AppError {
  constructor(message: string, fields?: Record<string, string>) {
    super(409, "conflict", message, fields);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, "too_many_requests", message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message = "Request body is too large.") {
    super(413, "payload_too_large", message);
  }
}

export const DISK_FULL = "The server's disk is full";

/** A write refused because the data directory's disk is (nearly) full or read-only: nothing was written. */
export class DiskFullError extends AppError {
  constructor(message = DISK_FULL) {
    super(507, "disk_full", message);
  }
}
