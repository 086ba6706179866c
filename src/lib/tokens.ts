import { createHash, randomBytes } from "node:crypto";

/** 256 random bits (or `bytes` * 8), URL-safe: for session and reset tokens; shorter for a link sent by SMS. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Tokens are stored only as their SHA-256: a leaked database does not log anyone in. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}
