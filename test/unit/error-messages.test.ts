// The status -> sentence mapping of the account screens (spec section 8).
// Run: npx bun test test/unit/error-messages.test.ts
import { describe, expect, test } from "bun:test";
import { RESET_TOKEN_INVALID, RESET_TOKEN_MISSING } from "../../src/schemas/auth.ts";
import { INVALID_LOGIN } from "../../src/schemas/texts.ts";
import { ApiError, CONNECTION_ERROR } from "../../web/shared/api/client.ts";
import {
  FORGOT_DEFAULT,
  FORGOT_INVALID,
  forgotPasswordErrorMessage,
  LOGIN_DEFAULT,
  loginErrorMessage,
  REGISTRATION_DEFAULT,
  REGISTRATION_INVALID,
  RESET_DEFAULT,
  registerErrorMessage,
  resetPasswordErrorMessage,
  serverText,
} from "../../web/features/auth/error-messages.ts";

/** An ApiError as web/shared/api/client.ts builds it: the message falls back to the status text, the body is kept. */
const err = (status: number, body: unknown = null) => new ApiError(status, "Internal Server Error", body);
const apiBody = (error: string, code = "x") => ({ error, code });
const network = () => new ApiError(0, CONNECTION_ERROR, null);

describe("the spec's texts", () => {
  test("are exactly as written", () => {
    expect(CONNECTION_ERROR).toBe("Unable to connect to server. Please check your internet connection.");
    expect(INVALID_LOGIN).toBe("Invalid email or password. Please check your credentials and try again.");
    expect(LOGIN_DEFAULT).toBe("Login failed. Please try again.");
    expect(REGISTRATION_INVALID).toBe("Invalid registration data. Please check your information.");
    expect(REGISTRATION_DEFAULT).toBe("Registration failed. Please try again.");
    expect(FORGOT_DEFAULT).toBe("Failed to send reset instructions. Please try again.");
    expect(FORGOT_INVALID).toBe("Invalid email address.");
    expect(RESET_DEFAULT).toBe("Failed to reset password. Please try again.");
    expect(RESET_TOKEN_INVALID).toBe("Invalid or expired reset token. Please request a new password reset.");
    expect(RESET_TOKEN_MISSING).toBe("Invalid or missing reset token. Please request a new password reset.");
  });
});

describe("serverText", () => {
  test("reads error, then message, trimmed", () => {
    expect(serverText({ error: " Nope. ", code: "x" })).toBe("Nope.");
    expect(serverText({ message: "From message" })).toBe("From message");
    expect(serverText({ error: "E", message: "M" })).toBe("E");
    expect(serverText({ error: "", message: "M" })).toBe("M");
  });
  test("accepts a short plain-text body", () => {
    expect(serverText("Service down for maintenance")).toBe("Service down for maintenance");
  });
  test("ignores empty, HTML, over-long and non-text bodies", () => {
    expect(serverText(null)).toBeUndefined();
    expect(serverText("")).toBeUndefined();
    expect(serverText("   ")).toBeUndefined();
    expect(serverText("<html><body>502 Bad Gateway</body></html>")).toBeUndefined();
    expect(serverText("x".repeat(301))).toBeUndefined();
    expect(serverText({ error: 42 })).toBeUndefined();
    expect(serverText({ fields: { email: "bad" } })).toBeUndefined();
    expect(serverText(17)).toBeUndefined();
  });
});

describe("loginErrorMessage", () => {
  test("401 is always the credentials text, whatever the server said", () => {
    expect(loginErrorMessage(err(401))).toBe(INVALID_LOGIN);
    expect(loginErrorMessage(err(401, apiBody("Please log in to continue.")))).toBe(INVALID_LOGIN);
  });
  test("status 0 is the connection text", () => {
    expect(loginErrorMessage(network())).toBe(CONNECTION_ERROR);
  });
  test("otherwise the server's message", () => {
    expect(loginErrorMessage(err(400, apiBody("Email is required")))).toBe("Email is required");
    expect(loginErrorMessage(err(500, apiBody("Something went wrong on our side. Please try again.")))).toBe(
      "Something went wrong on our side. Please try again.",
    );
    expect(loginErrorMessage(err(429, apiBody("Too many attempts. Please wait 15 minutes and try again.")))).toBe(
      "Too many attempts. Please wait 15 minutes and try again.",
    );
  });
  test("else the default (never the bare HTTP status text)", () => {
    expect(loginErrorMessage(err(500))).toBe(LOGIN_DEFAULT);
    expect(loginErrorMessage(err(503, "<html>down</html>"))).toBe(LOGIN_DEFAULT);
    expect(loginErrorMessage(new Error("a bug"))).toBe(LOGIN_DEFAULT);
    expect(loginErrorMessage(undefined)).toBe(LOGIN_DEFAULT);
  });
});

describe("registerErrorMessage", () => {
  test("400: the server's text, else the invalid-data text", () => {
    expect(registerErrorMessage(err(400, apiBody("Please enter a valid email address")))).toBe("Please enter a valid email address");
    expect(registerErrorMessage(err(400, "Plain text from the server"))).toBe("Plain text from the server");
    expect(registerErrorMessage(err(400))).toBe(REGISTRATION_INVALID);
  });
  test("status 0 is the connection text", () => {
    expect(registerErrorMessage(network())).toBe(CONNECTION_ERROR);
  });
  test("otherwise the server's message (409 duplicate email), else the default", () => {
    expect(registerErrorMessage(err(409, apiBody("An account with this email already exists.", "conflict")))).toBe(
      "An account with this email already exists.",
    );
    expect(registerErrorMessage(err(500, { message: "Database is locked." }))).toBe("Database is locked.");
    expect(registerErrorMessage(err(500))).toBe(REGISTRATION_DEFAULT);
    expect(registerErrorMessage(new TypeError("boom"))).toBe(REGISTRATION_DEFAULT);
  });
});

describe("forgotPasswordErrorMessage", () => {
  test("400: the server's text, else 'Invalid email address.'", () => {
    expect(forgotPasswordErrorMessage(err(400, apiBody("Please enter a valid email address")))).toBe(
      "Please enter a valid email address",
    );
    expect(forgotPasswordErrorMessage(err(400))).toBe(FORGOT_INVALID);
  });
  test("status 0 is the connection text", () => {
    expect(forgotPasswordErrorMessage(network())).toBe(CONNECTION_ERROR);
  });
  test("anything else is the default, even with a server message", () => {
    expect(forgotPasswordErrorMessage(err(500, apiBody("Internal detail")))).toBe(FORGOT_DEFAULT);
    expect(forgotPasswordErrorMessage(err(500))).toBe(FORGOT_DEFAULT);
    expect(forgotPasswordErrorMessage(err(403, apiBody("xsrf")))).toBe(FORGOT_DEFAULT);
    expect(forgotPasswordErrorMessage(new Error("bug"))).toBe(FORGOT_DEFAULT);
  });
  test("429 reads the server's wait message; without one, the default", () => {
    expect(forgotPasswordErrorMessage(err(429, apiBody("Too many attempts. Please wait 3 minutes and try again.")))).toBe(
      "Too many attempts. Please wait 3 minutes and try again.",
    );
    expect(forgotPasswordErrorMessage(err(429))).toBe(FORGOT_DEFAULT);
  });
});

describe("resetPasswordErrorMessage", () => {
  test("400: the server's text, else the invalid-token text", () => {
    expect(resetPasswordErrorMessage(err(400, apiBody(RESET_TOKEN_INVALID, "validation_failed")))).toBe(RESET_TOKEN_INVALID);
    expect(resetPasswordErrorMessage(err(400, apiBody("Password must be at least 6 characters")))).toBe(
      "Password must be at least 6 characters",
    );
    expect(resetPasswordErrorMessage(err(400))).toBe(RESET_TOKEN_INVALID);
  });
  test("status 0 is the connection text", () => {
    expect(resetPasswordErrorMessage(network())).toBe(CONNECTION_ERROR);
  });
  test("anything else is the default, even with a server message", () => {
    expect(resetPasswordErrorMessage(err(500, apiBody("Internal detail")))).toBe(RESET_DEFAULT);
    expect(resetPasswordErrorMessage(err(500))).toBe(RESET_DEFAULT);
    expect(resetPasswordErrorMessage(new Error("bug"))).toBe(RESET_DEFAULT);
  });
  test("429 reads the server's wait message; without one, the default", () => {
    expect(resetPasswordErrorMessage(err(429, apiBody("Too many attempts. Please wait 1 minute and try again.")))).toBe(
      "Too many attempts. Please wait 1 minute and try again.",
    );
    expect(resetPasswordErrorMessage(err(429))).toBe(RESET_DEFAULT);
  });
});
