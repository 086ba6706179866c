// What the account screens say when a request fails (spec section 8). Pure: an error in, a sentence out.
import { RESET_TOKEN_INVALID } from "../../../src/schemas/auth.ts";
import { INVALID_LOGIN } from "../../../src/schemas/texts.ts";
import { ApiError, CONNECTION_ERROR } from "../../shared/api/client.ts";

export const LOGIN_FAILED = "Login Failed";
export const LOGIN_DEFAULT = "Login failed. Please try again.";

export const REGISTRATION_FAILED = "Registration Failed";
export const REGISTRATION_INVALID = "Invalid registration data. Please check your information.";
export const REGISTRATION_DEFAULT = "Registration failed. Please try again.";

export const REQUEST_FAILED = "Request Failed";
export const FORGOT_INVALID = "Invalid email address.";
export const FORGOT_DEFAULT = "Failed to send reset instructions. Please try again.";

export const RESET_FAILED = "Reset Failed";
export const RESET_DEFAULT = "Failed to reset password. Please try again.";

interface Failure {
  /** HTTP status; 0 = the server could not be reached; -1 = not an API failure at all. */
  status: number;
  /** The sentence the server wrote for a person, if it wrote one. */
  text?: string;
}

/**
 * The server's sentence from a failed response body: `error` (this API's shape) or `message`, or a short plain-text
 * body. An HTML error page from a proxy is not a sentence.
 */
export function serverText(body: unknown): string | undefined {
  if (typeof body === "string") {
    const t = body.trim();
    return t && t.length <= 300 && !t.startsWith("<") ? t : undefined;
  }
  if (body && typeof body === "object") {
    for (const key of ["error", "message"] as const) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === "string" && value.trim()) return value.trim();
    }
  }
  return undefined;
}

function failure(err: unknown): Failure {
  if (err instanceof ApiError) return { status: err.status, text: serverText(err.body) };
  return { status: -1 };
}

/** Login (toast 'Login Failed'). */
export function loginErrorMessage(err: unknown): string {
  const { status, text } = failure(err);
  if (status === 401) return INVALID_LOGIN;
  if (status === 0) return CONNECTION_ERROR;
  return text ?? LOGIN_DEFAULT;
}

/** Registration (toast 'Registration Failed'); a 409 duplicate email reads the server's sentence. */
export function registerErrorMessage(err: unknown): string {
  const { status, text } = failure(err);
  if (status === 400) return text ?? REGISTRATION_INVALID;
  if (status === 0) return CONNECTION_ERROR;
  return text ?? REGISTRATION_DEFAULT;
}

/**
 * The password screens' messages: a 400 is the server's text (else `invalid`), no answer the connection text, and
 * anything else `fallback`. Beyond the spec: a 429 reads the server's 'Too many attempts. Please wait N minutes...'
 * sentence, since 'Please try again' would invite exactly the wrong thing.
 */
function passwordErrorMessage(invalid: string, fallback: string): (err: unknown) => string {
  return (err) => {
    const { status, text } = failure(err);
    if (status === 400) return text ?? invalid;
    if (status === 0) return CONNECTION_ERROR;
    if (status === 429 && text) return text;
    return fallback;
  };
}

/** Forgot password (toast 'Request Failed'). */
export const forgotPasswordErrorMessage = passwordErrorMessage(FORGOT_INVALID, FORGOT_DEFAULT);

/** Reset password (toast 'Reset Failed'). */
export const resetPasswordErrorMessage = passwordErrorMessage(RESET_TOKEN_INVALID, RESET_DEFAULT);
