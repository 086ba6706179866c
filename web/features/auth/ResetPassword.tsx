import { useEffect, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { PASSWORD_MIN, resetPasswordFormSchema } from "../../../src/schemas/auth.ts";
import { RESET_TOKEN_MISSING } from "../../../src/schemas/auth.ts";
import { RESET_FAILED, resetPasswordErrorMessage } from "./error-messages.ts";
import { authApi } from "./api.ts";
import { AuthCard, SubmitButton } from "./components/AuthCard.tsx";
import { PasswordField } from "./components/PasswordField.tsx";
import { useForm } from "../../shared/components/form.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/auth.css";

/** Spec section 4: reset password redirects to /login 2 s after success. */
export const RESET_REDIRECT_MS = 2000;

export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get("token")?.trim() ?? "";
  const form = useForm(resetPasswordFormSchema, { password: "", confirmPassword: "" });
  const [done, setDone] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const { busy, onSubmit, formRef } = useSubmit(form, {
    async send({ password }) {
      const res = await authApi.resetPassword(token, password);
      notify.success("Password Reset", res.message);
      setDone(res.message);
    },
    fail: (err) => notify.error(RESET_FAILED, resetPasswordErrorMessage(err)),
    blocked: done !== null || !token,
  });

  useEffect(() => {
    if (done === null) return;
    const timer = setTimeout(() => navigate(paths.login), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const footer = (
    <>
      Back to <Link href={paths.login}>Login</Link>
    </>
  );

  if (!token) {
    return (
      <AuthCard icon="key" title="Reset your password" subtitle="Choose a new password for your account." footer={footer}>
        <div className="alert alert-error" role="alert">
          {RESET_TOKEN_MISSING}
        </div>
        <Link href={paths.forgotPassword} className="btn btn-primary btn-block btn-lg">
          Request a new reset link
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard icon="key" title="Reset your password" subtitle="Choose a new password for your account." footer={footer}>
      {done !== null ? (
        <div className="alert alert-success" role="status">
          <strong>Password changed</strong>
          <p>{done}</p>
          <p className="auth-redirect">Taking you to the login page...</p>
        </div>
      ) : (
        <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-label="Reset password">
          <PasswordField label="New password" hint={`At least ${PASSWORD_MIN} characters.`} autoComplete="new-password" {...form.bind("password")} />
          <PasswordField label="Confirm new password" autoComplete="new-password" {...form.bind("confirmPassword")} />
          <SubmitButton busy={busy} label="Reset Password" busyLabel="Resetting..." />
        </form>
      )}
    </AuthCard>
  );
}
