import type { ReactNode } from "react";
import { Link } from "wouter";

/** A primary submit button that shows a spinner and `busyLabel`, and refuses clicks, while a request is in flight. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  icon,
  disabled = false,
  className,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  /** Drawn before the label; the spinner takes its place while busy. */
  icon?: ReactNode;
  /** Refused even when not busy (e.g. while the form is invalid). */
  disabled?: boolean;
  /** Added after "btn btn-primary". */
  className?: string;
}) {
  return (
    <button type="submit" className={`btn btn-primary${className ? ` ${className}` : ""}`} disabled={disabled || busy} aria-busy={busy}>
      {busy ? <span className="spinner" aria-hidden="true" /> : icon}
      {busy ? busyLabel : label}
    </button>
  );
}

/** The foot of an add/edit form: Cancel (back to `cancelHref`) and the submit, refused while invalid or saving. */
export function FormActions({
  cancelHref,
  saving,
  valid,
  label,
  className,
}: {
  cancelHref: string;
  saving: boolean;
  valid: boolean;
  label: string;
  /** Added after "form-actions". */
  className?: string;
}) {
  return (
    <div className={`form-actions${className ? ` ${className}` : ""}`}>
      <Link href={cancelHref} className="btn btn-secondary">
        Cancel
      </Link>
      <SubmitButton busy={saving} disabled={!valid} label={label} busyLabel="Saving..." />
    </div>
  );
}
