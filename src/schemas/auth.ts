import * as v from "valibot";

export const PASSWORD_MIN = 6;
// argon2 over megabytes of input is a cheap denial of service; 200 characters is plenty for a passphrase.
export const PASSWORD_MAX = 200;

const email = v.pipe(
  v.string("Email is required"),
  v.trim(),
  v.nonEmpty("Email is required"),
  v.maxLength(254, "Please enter a valid email address"),
  v.email("Please enter a valid email address"),
  v.toLowerCase(),
);

const password = v.pipe(
  v.string("Password is required"),
  v.nonEmpty("Password is required"),
  v.minLength(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters`),
  v.maxLength(PASSWORD_MAX, `Password cannot exceed ${PASSWORD_MAX} characters`),
);

export const loginSchema = v.object({
  email,
  password: v.pipe(
    v.string("Password is required"),
    v.nonEmpty("Password is required"),
    v.maxLength(PASSWORD_MAX, "Invalid email or password."),
  ),
});

const name = (required: string, label: string) =>
  v.pipe(v.string(required), v.trim(), v.nonEmpty(required), v.maxLength(100, `${label} cannot exceed 100 characters`));

export const registerSchema = v.object({
  firstName: name("First name is required", "First name"),
  lastName: name("Last name is required", "Last name"),
  email,
  password,
});

export const forgotPasswordSchema = v.object({ email });

export const resetPasswordSchema = v.object({
  token: v.pipe(
    v.string("Invalid or missing reset token. Please request a new password reset."),
    v.nonEmpty("Invalid or missing reset token. Please request a new password reset."),
    v.maxLength(200, "Invalid or expired reset token. Please request a new password reset."),
  ),
  newPassword: password,
});

// The reset screen also asks for the password twice.
export const resetPasswordFormSchema = v.pipe(
  v.object({
    password,
    confirmPassword: v.pipe(v.string("Confirm password is required"), v.nonEmpty("Confirm password is required")),
  }),
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
}
