import { type FormEvent, type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { Link, useLocation } from "wouter";
import { loginSchema } from "../../src/schemas/auth.ts";
import { LOGIN_FAILED, loginErrorMessage } from "../api/error-messages.ts";
import { ErrorSummary, Field, useForm } from "../components/form.tsx";
import { paths } from "../paths.ts";
import { login } from "../state/session.ts";
import { notify } from "../state/toasts.ts";
import "../styles/auth.css";

// The pieces below are shared by the four account screens (login, register, forgot and reset password).

const ICONS = {
  lock: (
    <>
      <rect x="4" y="10" width="16" height="11" rx="2" />
      <path d="M8 10V7a4 4 0 0 1 8 0v3" />
    </>
  ),
  user: (
    <>
      <path d="M15 20v-1.5a4 4 0 0 0-4-4H7a4 4 0 0 0-4 4V20" />
      <circle cx="9" cy="7.5" r="3.5" />
      <path d="M19 8v6M22 11h-6" />
    </>
  ),
  mail: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3.5 7 8.5 6 8.5-6" />
    </>
  ),
  key: (
    <>
      <circle cx="8" cy="15" r="4" />
      <path d="m10.8 12.2 8.7-8.7M16 7l2.5 2.5M18.5 4.5 21 7" />
    </>
  ),
} as const;

/** The centred card every account screen sits in. */
export function AuthCard({
  icon,
  title,
  subtitle,
  children,
  footer,
}: {
  icon: keyof typeof ICONS;
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="auth-screen">
      <div className="container">
        <div className="card form-card auth-card">
          <header className="auth-header">
            <span className="auth-mark" aria-hidden="true">
              <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                {ICONS[icon]}
              </svg>
            </span>
            <h1>{title}</h1>
            <p className="auth-subtitle">{subtitle}</p>
          </header>
          {children}
          {footer && <div className="form-footer auth-footer">{footer}</div>}
        </div>
      </div>
    </section>
  );
}

/** A full-width primary submit button that shows a spinner and refuses clicks while a request is in flight. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="btn btn-primary btn-block btn-lg auth-submit" disabled={busy} aria-busy={busy}>
      {busy && <span className="spinner" aria-hidden="true" />}
      {busy ? busyLabel : label}
    </button>
  );
}

type InputWiring = { id: string; "aria-invalid": boolean; "aria-describedby"?: string; className: string };

/** A password input with a Show/Hide toggle (people on phones mistype passwords they cannot see). */
export function PasswordInput({
  wiring,
  name,
  value,
  autoComplete,
  onChange,
  onBlur,
}: {
  wiring: InputWiring;
  name: string;
  value: string;
  autoComplete: "current-password" | "new-password";
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const [shown, setShown] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <div className="password-input">
      <input
        {...wiring}
        name={name}
        type={shown ? "text" : "password"}
        autoComplete={autoComplete}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={(e) => {
          // Reaching for Show/Hide is not leaving the field: no error for it yet.
          if (e.relatedTarget !== toggle.current) onBlur();
        }}
      />
      <button ref={toggle} type="button" className="password-toggle" aria-controls={wiring.id} onClick={() => setShown((s) => !s)}>
        {shown ? "Hide" : "Show"}
        <span className="sr-only"> password</span>
      </button>
    </div>
  );
}

/** After a rejected submit attempt, moves focus to the first invalid control (the attempt counter triggers it). */
export function useFocusFirstInvalid(formRef: RefObject<HTMLFormElement | null>, attempt: number): void {
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [formRef, attempt]);
}

export function LoginPage() {
  const form = useForm(loginSchema, { email: "", password: "" });
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
      await login(form.output.email, form.output.password);
    } catch (err) {
      notify.error(LOGIN_FAILED, loginErrorMessage(err));
      setBusy(false);
      return;
    }
    notify.success("Login Successful", "Welcome back! You have been logged in successfully.");
    navigate(paths.home);
  }

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
      <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-label="Login">
        <ErrorSummary errors={form.errors} show={form.submitted} />
        <Field label="Email" error={form.error("email")}>
          {(wiring) => (
            <input
              {...wiring}
              name="email"
              type="email"
              inputMode="email"
              autoComplete="email"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              placeholder="you@example.com"
              value={form.values.email}
              onChange={(e) => form.set("email", e.target.value)}
              onBlur={() => form.touch("email")}
            />
          )}
        </Field>
        <div className="auth-password-field">
          <Field label="Password" error={form.error("password")}>
            {(wiring) => (
              <PasswordInput
                wiring={wiring}
                name="password"
                autoComplete="current-password"
                value={form.values.password}
                onChange={(value) => form.set("password", value)}
                onBlur={() => form.touch("password")}
              />
            )}
          </Field>
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
