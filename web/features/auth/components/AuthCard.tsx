import type { ReactNode } from "react";
import { SubmitButton as FormSubmitButton } from "../../../shared/components/FormActions.tsx";

// The frame of the four account screens (login, register, forgot and reset password).

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

/** The full-width primary submit button of an account screen (spinner and `busyLabel` while a request is in flight). */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return <FormSubmitButton className="btn-block btn-lg auth-submit" busy={busy} label={label} busyLabel={busyLabel} />;
}
