import { Link, useLocation, useSearch } from "wouter";
import { loginSchema } from "../../../src/schemas/auth.ts";
import { LOGIN_FAILED, loginErrorMessage } from "./error-messages.ts";
import { AuthCard, SubmitButton } from "./components/AuthCard.tsx";
import { EmailField } from "./components/EmailField.tsx";
import { PasswordField } from "./components/PasswordField.tsx";
import { ErrorSummary, useForm } from "../../shared/components/form.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { afterLoginPath, paths } from "../../shared/paths.ts";
import { login } from "../../shared/state/session.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/auth.css";

export function LoginPage() {
  const form = useForm(loginSchema, { email: "", password: "" });
  const [, navigate] = useLocation();
  // Back to the page that sent the user here (the guards pass it as ?next=), else home.
  const next = afterLoginPath(useSearch());
  const { busy, onSubmit, formRef } = useSubmit(form, {
    async send({ email, password }) {
      await login(email, password);
      notify.success("Login Successful", "Welcome back! You have been logged in successfully.");
      navigate(next);
    },
    fail: (err) => notify.error(LOGIN_FAILED, loginErrorMessage(err)),
  });

  return (
    <AuthCard
      icon="lock"
      title="Login"
      subtitle="Welcome back. Log in to manage your businesses and reach your subscribers."
      footer={
        <>
          Don't have an account? <Link href={paths.register}>Register</Link>
        </>
      }
    >
      {/* method="post": rendered on the server, a form sent before the script has run never puts the password in the URL. */}
      <form ref={formRef} className="auth-form" method="post" onSubmit={onSubmit} noValidate aria-label="Login">
        <ErrorSummary errors={form.errors} show={form.submitted} />
        <EmailField {...form.bind("email")} />
        <div className="auth-password-field">
          <PasswordField label="Password" autoComplete="current-password" {...form.bind("password")} />
          {/* After the field in the DOM (tab order: password, Show, this), drawn on the label's line. */}
          <Link href={paths.forgotPassword} className="auth-link auth-forgot">
            Forgot password?
          </Link>
        </div>
        <SubmitButton busy={busy} label="Login" busyLabel="Logging in..." />
      </form>
    </AuthCard>
  );
}
