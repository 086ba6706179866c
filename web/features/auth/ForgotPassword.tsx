import { useEffect, useState } from "react";
import { Link, useLocation } from "wouter";
import { forgotPasswordSchema } from "../../../src/schemas/auth.ts";
import { REQUEST_FAILED, forgotPasswordErrorMessage } from "./error-messages.ts";
import { ApiError } from "../../shared/api/client.ts";
import { authApi } from "./api.ts";
import { AuthCard, SubmitButton } from "./components/AuthCard.tsx";
import { EmailField } from "./components/EmailField.tsx";
import { useForm } from "../../shared/components/form.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/auth.css";

/** Spec section 4: forgot password redirects to /login 3 s after success. */
export const FORGOT_REDIRECT_MS = 3000;

export function ForgotPasswordPage() {
  const form = useForm(forgotPasswordSchema, { email: "" });
  const [sent, setSent] = useState<{ message: string; token?: string } | null>(null);
  // The server cannot send email at all: said on the page too, since a toast is gone in seconds and this is final.
  const [noEmail, setNoEmail] = useState<string | null>(null);
  const [, navigate] = useLocation();
  const { busy, onSubmit, formRef } = useSubmit(form, {
    async send({ email }) {
      const res = await authApi.forgotPassword(email);
      notify.success("Email Sent", res.message);
      setSent({ message: res.message, token: res.token || undefined });
    },
    fail: (err) => {
      const message = forgotPasswordErrorMessage(err);
      notify.error(REQUEST_FAILED, message);
      const code = err instanceof ApiError ? (err.body as { code?: unknown } | null)?.code : undefined;
      // No SMTP, or no public URL for the link (issue 21): either way no reset email can go until the operator acts.
      setNoEmail(code === "email_not_configured" || code === "public_url_not_set" ? message : null);
    },
    blocked: sent !== null,
  });

  // Leaving the screen early (e.g. following the development link) cancels the redirect.
  useEffect(() => {
    if (!sent) return;
    const timer = setTimeout(() => navigate(paths.login), FORGOT_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [sent, navigate]);

  return (
    <AuthCard
      icon="mail"
      title="Forgot your password?"
      subtitle={
        sent
          ? "Follow the instructions we sent to choose a new password."
          : "Enter the email address of your account and we'll send you instructions to reset your password."
      }
      footer={
        <>
          Remembered it? <Link href={paths.login}>Back to login</Link>
        </>
      }
    >
      {sent ? (
        <div className="auth-done">
          <div className="alert alert-success" role="status">
            <strong>Check your email</strong>
            <p>{sent.message}</p>
            <p className="auth-redirect">Taking you to the login page...</p>
          </div>
          {sent.token && (
            <div className="alert alert-info dev-notice" role="note" aria-label="Development mode">
              <strong>Development mode</strong>
              <p>The server returned the reset token instead of emailing it:</p>
              <code className="dev-token">{sent.token}</code>
              <Link href={`${paths.resetPassword}?token=${encodeURIComponent(sent.token)}`} className="btn btn-secondary btn-sm">
                Reset password now
              </Link>
            </div>
          )}
        </div>
      ) : (
        <form ref={formRef} className="auth-form" method="post" onSubmit={onSubmit} noValidate aria-label="Forgot password">
          {noEmail && (
            <div className="alert alert-warning" role="note" aria-label="Email is not set up">
              {noEmail}
            </div>
          )}
          <EmailField {...form.bind("email")} />
          <SubmitButton busy={busy} label="Send Reset Instructions" busyLabel="Sending..." />
        </form>
      )}
    </AuthCard>
  );
}
