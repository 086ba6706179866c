import { expect, test } from "bun:test";
import * as v from "valibot";
import { loginSchema, resetPasswordFormSchema } from "../../src/schemas/auth.ts";
import { check } from "../../src/schemas/check.ts";

test("a missing key reports the field's own message, not valibot's generic one", () => {
  const r = check(loginSchema, {});
  expect(r.ok).toBe(false);
  if (!r.ok) {
    expect(r.errors).toEqual({ email: "Email is required", password: "Password is required" });
    expect(r.message).toBe("Email is required");
  }
});

test("missing keys inside a piped object schema also get their field messages", () => {
  const r = check(resetPasswordFormSchema, { password: "abcdef" });
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.errors.confirmPassword).toBe("Confirm password is required");
});

test("unknown keys are dropped and valid input passes through transformed", () => {
  const r = check(loginSchema, { email: "  Ana@Example.COM ", password: "secret", extra: 1 });
  expect(r).toEqual({ ok: true, value: { email: "ana@example.com", password: "secret" } });
});

test("non-object input is reported, not crashed on", () => {
  const r = check(v.object({ a: v.string("A is required") }), null);
  expect(r.ok).toBe(false);
});
