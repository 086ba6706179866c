import { type FormEvent, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { PASSWORD_MIN, registerSchema } from "../../src/schemas/auth.ts";
import { REGISTRATION_FAILED, registerErrorMessage } from "../api/error-messages.ts";
import { authApi } from "../api/endpoints.ts";
import { AuthCard, SubmitButton, useFocusFirstInvalid } from "../components/auth/AuthCard.tsx";
import { EmailField } from "../components/auth/EmailField.tsx";
import { PasswordField } from "../components/auth/PasswordField.tsx";
import { ErrorSummary, Field, useForm } from "../components/form.tsx";
import { paths } from "../paths.ts";
import { notify } from "../state/toasts.ts";
import "../styles/auth.css";

export function RegisterPage() {
  const form = useForm(registerSchema, { firstName: "", lastName: "", email: "", password: "" });
  const [busy, setBusy] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [, navigate] = useLocation();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, attempt);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!form.submit() || !form.output) {
      setAttempt((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      await authApi.register(form.output);
    } catch (err) {
      notify.error(REGISTRATION_FAILED, registerErrorMessage(err));
      setBusy(false);
      return;
    }
    notify.success("Registration Successful", "Your account has been created successfully. Please login with your credentials.");
    navigate(paths.login);
  }

  const text = (key: "firstName" | "lastName", label: string, autoComplete: string) => (
    <Field label={label} error={form.error(key)}>
      {(wiring) => (
        <input
          {...wiring}
          name={key}
          type="text"
          autoComplete={autoComplete}
          autoCapitalize="words"
          value={form.values[key]}
          onChange={(e) => form.set(key, e.target.value)}
          onBlur={() => form.touch(key)}
        />
      )}
    </Field>
  );

  return (
    <AuthCard
      icon="user"
      title="Create your account"
      subtitle="Register to add your business, print its QR poster and send offers to your subscribers."
      footer={
        <>
          Already have an account? <Link href={paths.login}>Login</Link>
        </>
      }
    >
      <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-label="Register">
        <ErrorSummary errors={form.errors} show={form.submitted} />
        <div className="two-cols">
          {text("firstName", "First name", "given-name")}
          {text("lastName", "Last name", "family-name")}
        </div>
        <EmailField {...form.bind("email")} />
        <PasswordField label="Password" hint={`At least ${PASSWORD_MIN} characters.`} autoComplete="new-password" {...form.bind("password")} />
        <SubmitButton busy={busy} label="Create Account" busyLabel="Creating account..." />
        <p className="auth-legal">
          By creating an account you agree to our <Link href={paths.terms}>Terms of Service</Link> and{" "}
          <Link href={paths.privacy}>Privacy Policy</Link>.
        </p>
      </form>
    </AuthCard>
  );
}
