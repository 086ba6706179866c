import { describe, expect, test } from "bun:test";
import {
  forgotPasswordSchema,
  loginSchema,
  registerSchema,
  resetPasswordFormSchema,
  resetPasswordSchema,
} from "../../src/schemas/auth.ts";
import { check } from "../../src/schemas/check.ts";

// The spec's texts (section 5 and 8), spelled out here rather than imported: they are the contract.
const EMAIL_REQUIRED = "Email is required";
const EMAIL_INVALID = "Please enter a valid email address";
const PASSWORD_REQUIRED = "Password is required";
const PASSWORD_MIN = "Password must be at least 6 characters";
const FIRST_REQUIRED = "First name is required";
const LAST_REQUIRED = "Last name is required";
const CONFIRM_REQUIRED = "Confirm password is required";
const NO_MATCH = "Passwords do not match";
const TOKEN_MISSING = "Invalid or missing reset token. Please request a new password reset.";

/** The per-field messages of a failing check (fails the test when the input passes). */
function errorsOf(schema: Parameters<typeof check>[0], input: unknown): Record<string, string> {
  const r = check(schema, input);
  if (r.ok) throw new Error(`expected ${JSON.stringify(input)} to fail`);
  return r.errors;
}

type Case = { name: string; input: unknown; field: string; message: string };

function table(schema: Parameters<typeof check>[0], cases: Case[]) {
  for (const c of cases) {
    test(c.name, () => {
      expect(errorsOf(schema, c.input)[c.field]).toBe(c.message);
    });
  }
}

const validRegister = { firstName: "Ada", lastName: "Baker", email: "ada@example.com", password: "secret1" };

describe("login", () => {
  table(loginSchema, [
    { name: "email missing", input: { password: "x" }, field: "email", message: EMAIL_REQUIRED },
    { name: "email empty", input: { email: "", password: "x" }, field: "email", message: EMAIL_REQUIRED },
    { name: "email blank", input: { email: "   ", password: "x" }, field: "email", message: EMAIL_REQUIRED },
    { name: "email null", input: { email: null, password: "x" }, field: "email", message: EMAIL_REQUIRED },
    { name: "email a number", input: { email: 42, password: "x" }, field: "email", message: EMAIL_REQUIRED },
    { name: "email malformed", input: { email: "ada@", password: "x" }, field: "email", message: EMAIL_INVALID },
    { name: "email without domain dot", input: { email: "ada example.com", password: "x" }, field: "email", message: EMAIL_INVALID },
    { name: "email too long", input: { email: `${"a".repeat(250)}@example.com`, password: "x" }, field: "email", message: EMAIL_INVALID },
    { name: "password missing", input: { email: "ada@example.com" }, field: "password", message: PASSWORD_REQUIRED },
    { name: "password empty", input: { email: "ada@example.com", password: "" }, field: "password", message: PASSWORD_REQUIRED },
    { name: "password an array", input: { email: "ada@example.com", password: [] }, field: "password", message: PASSWORD_REQUIRED },
  ]);

  test("login does not apply the register minimum (an old short password must still get the 401 path)", () => {
    expect(check(loginSchema, { email: "ada@example.com", password: "abc" }).ok).toBe(true);
  });

  test("an empty object reports both fields with the spec's texts, never valibot's own", () => {
    const r = check(loginSchema, {});
    expect(r).toEqual({ ok: false, errors: { email: EMAIL_REQUIRED, password: PASSWORD_REQUIRED }, message: EMAIL_REQUIRED });
  });

  test("email is trimmed and lower-cased", () => {
    const r = check(loginSchema, { email: "  Ada@Example.COM ", password: "x" });
    expect(r.ok && r.value.email).toBe("ada@example.com");
  });
});

describe("register", () => {
  table(registerSchema, [
    { name: "first name missing", input: { ...validRegister, firstName: undefined }, field: "firstName", message: FIRST_REQUIRED },
    { name: "first name blank", input: { ...validRegister, firstName: "  " }, field: "firstName", message: FIRST_REQUIRED },
    { name: "first name a number", input: { ...validRegister, firstName: 7 }, field: "firstName", message: FIRST_REQUIRED },
    { name: "last name missing", input: { ...validRegister, lastName: undefined }, field: "lastName", message: LAST_REQUIRED },
    { name: "last name empty", input: { ...validRegister, lastName: "" }, field: "lastName", message: LAST_REQUIRED },
    { name: "email missing", input: { ...validRegister, email: undefined }, field: "email", message: EMAIL_REQUIRED },
    { name: "email malformed", input: { ...validRegister, email: "not-an-email" }, field: "email", message: EMAIL_INVALID },
    { name: "password missing", input: { ...validRegister, password: undefined }, field: "password", message: PASSWORD_REQUIRED },
    { name: "password empty", input: { ...validRegister, password: "" }, field: "password", message: PASSWORD_REQUIRED },
    { name: "password 5 characters", input: { ...validRegister, password: "12345" }, field: "password", message: PASSWORD_MIN },
    { name: "password a number", input: { ...validRegister, password: 123456 }, field: "password", message: PASSWORD_REQUIRED },
  ]);

  test("an empty object names every field with the spec's texts", () => {
    expect(errorsOf(registerSchema, {})).toEqual({
      firstName: FIRST_REQUIRED,
      lastName: LAST_REQUIRED,
      email: EMAIL_REQUIRED,
      password: PASSWORD_REQUIRED,
    });
  });

  test("the top-level message is the first field's", () => {
    const r = check(registerSchema, { ...validRegister, lastName: "", password: "1" });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe(LAST_REQUIRED);
  });

  test("exactly 6 characters is enough", () => {
    expect(check(registerSchema, { ...validRegister, password: "123456" }).ok).toBe(true);
  });

  test("unknown keys (such as a role) are dropped", () => {
    const r = check(registerSchema, { ...validRegister, role: "admin" });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value).not.toHaveProperty("role");
  });

  test("names are trimmed, email lower-cased", () => {
    const r = check(registerSchema, { ...validRegister, firstName: " Ada ", email: "ADA@Example.com" });
    expect(r.ok && [r.value.firstName, r.value.email]).toEqual(["Ada", "ada@example.com"]);
  });
});

describe("forgot password", () => {
  table(forgotPasswordSchema, [
    { name: "email missing", input: {}, field: "email", message: EMAIL_REQUIRED },
    { name: "email empty", input: { email: "" }, field: "email", message: EMAIL_REQUIRED },
    { name: "email malformed", input: { email: "a@b" }, field: "email", message: EMAIL_INVALID },
  ]);
});

describe("reset password (API)", () => {
  table(resetPasswordSchema, [
    { name: "token missing", input: { newPassword: "secret1" }, field: "token", message: TOKEN_MISSING },
    { name: "token empty", input: { token: "", newPassword: "secret1" }, field: "token", message: TOKEN_MISSING },
    { name: "token a number", input: { token: 5, newPassword: "secret1" }, field: "token", message: TOKEN_MISSING },
    { name: "new password missing", input: { token: "t" }, field: "newPassword", message: PASSWORD_REQUIRED },
    { name: "new password short", input: { token: "t", newPassword: "12345" }, field: "newPassword", message: PASSWORD_MIN },
  ]);
});

describe("reset password (form)", () => {
  table(resetPasswordFormSchema, [
    { name: "password missing", input: { confirmPassword: "secret1" }, field: "password", message: PASSWORD_REQUIRED },
    { name: "password short", input: { password: "12345", confirmPassword: "12345" }, field: "password", message: PASSWORD_MIN },
    { name: "confirm missing", input: { password: "secret1" }, field: "confirmPassword", message: CONFIRM_REQUIRED },
    { name: "confirm empty", input: { password: "secret1", confirmPassword: "" }, field: "confirmPassword", message: CONFIRM_REQUIRED },
    { name: "mismatch", input: { password: "secret1", confirmPassword: "secret2" }, field: "confirmPassword", message: NO_MATCH },
  ]);

  test("matching passwords pass", () => {
    expect(check(resetPasswordFormSchema, { password: "secret1", confirmPassword: "secret1" }).ok).toBe(true);
  });
});

test("a non-object input gets one clear message under the '_' key, not valibot's type talk", () => {
  for (const schema of [loginSchema, registerSchema, forgotPasswordSchema, resetPasswordSchema]) {
    for (const input of ["a", 5, null, undefined]) {
      expect(check(schema, input)).toEqual({
        ok: false,
        errors: { _: "Request body must be a JSON object." },
        message: "Request body must be a JSON object.",
      });
    }
  }
});
