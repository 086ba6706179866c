import * as v from "valibot";
import { requiredText, text } from "./text.ts";
import type { UserStatus } from "./owner-approval.ts";

export const PASSWORD_MIN = 6;
// A bound for new passwords (200 characters is plenty for a passphrase); the 64 KB body limit bounds the rest.
export const PASSWORD_MAX = 200;

export const RESET_TOKEN_MISSING = "Invalid or missing reset token. Please request a new password reset.";
export const RESET_TOKEN_INVALID = "Invalid or expired reset token. Please request a new password reset.";


/** What a non-object input (a string, a number, null) is told; valibot's own text would name JS types. */
export const NOT_AN_OBJECT = "Request body must be a JSON object.";

const email = v.pipe(
  text("Email is required"),
  v.trim(),
  v.nonEmpty("Email is required"),
  v.maxLength(254, "Please enter a valid email address"),
  v.email("Please enter a valid email address"),
  v.toLowerCase(),
);

const password = v.pipe(
  text("Password is required"),
  v.nonEmpty("Password is required"),
  v.minLength(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
  v.maxLength(PASSWORD_MAX, `Password cannot exceed ${PASSWORD_MAX} characters`),
);

// No length cap here: an over-long password simply does not match (argon2's cost does not grow with the input's
// length), so it gets the same 401 as any wrong password rather than a message of its own.
export const loginSchema = v.object(
  {
    email,
    password: v.pipe(text("Password is required"), v.nonEmpty("Password is required")),
  },
  NOT_AN_OBJECT,
);

const name = (required: string, label: string) => requiredText(required, 100, `${label} cannot exceed 100 characters`);

export const registerSchema = v.object(
  {
    firstName: name("First name is required", "First name"),
    lastName: name("Last name is required", "Last name"),
    email,
    password,
  },
  NOT_AN_OBJECT,
);

export const forgotPasswordSchema = v.object({ email }, NOT_AN_OBJECT);

export const resetPasswordSchema = v.object(
  {
    token: requiredText(RESET_TOKEN_MISSING, 200, RESET_TOKEN_INVALID),
    newPassword: password,
  },
  NOT_AN_OBJECT,
);

// The reset screen also asks for the password twice.
export const resetPasswordFormSchema = v.pipe(
  v.object(
    {
      password,
      confirmPassword: v.pipe(text("Confirm password is required"), v.nonEmpty("Confirm password is required")),
    },
    NOT_AN_OBJECT,
  ),
  v.forward(
    v.partialCheck(
      [["password"], ["confirmPassword"]],
      (input) => input.password === input.confirmPassword,
      "Passwords do not match",
    ),
    ["confirmPassword"],
  ),
);

export type LoginInput = v.InferOutput<typeof loginSchema>;
export type RegisterInput = v.InferOutput<typeof registerSchema>;

export type Role = "admin" | "owner";

export interface PublicUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  createdAt: string;
  /** The account holder's own mobile (E.164) for test sends; null when not given (always sent by the server). */
  phone?: string | null;
  /** Whether that phone answered the code texted to it (test sends go only to a verified phone). */
  phoneVerified?: boolean;
  /** pending: waits for the admin's approval, and nothing is texted for the account until then. */
  status?: UserStatus;
}

/** PUT /api/auth/UpdateMyPhone: the owner's own mobile; "" (or null) clears it. */
export const MY_PHONE_INVALID = "Please enter a valid mobile number, e.g. +1 415 555 0134.";
export const MY_PHONE_MISSING = "Add your own mobile number first: the test goes to it.";
