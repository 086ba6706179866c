import { type ReactNode, useId } from "react";
import { Link } from "wouter";

/** A primary submit button that shows a spinner and `busyLabel`, and refuses clicks, while a request is in flight. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  icon,
  disabled = false,
  className,
  describedBy,
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
  /** The id of what says why the button is disabled. */
  describedBy?: string;
}) {
  return (
    <button type="submit" className={`btn btn-primary${className ? ` ${className}` : ""}`} disabled={disabled || busy} aria-busy={busy} aria-describedby={describedBy}>
      {busy ? <span className="spinner" aria-hidden="true" /> : icon}
      {busy ? busyLabel : label}
    </button>
  );
}

/**
 * The foot of an add/edit form: Cancel (back to `cancelHref`) and the submit, refused while invalid or saving. With
 * `missing` (what the form still needs, as the person reads it), a disabled submit says why under it.
 */
export function FormActions({
  cancelHref,
  saving,
  valid,
  label,
  className,
  missing = [],
}: {
  cancelHref: string;
  saving: boolean;
  valid: boolean;
  label: string;
  /** Added after "form-actions". */
  className?: string;
  missing?: string[];
}) {
  const whyId = useId();
  const why = !valid && !saving && missing.length > 0;
  return (
    <>
      <div className={`form-actions${className ? ` ${className}` : ""}`}>
        <Link href={cancelHref} className="btn btn-secondary">
          Cancel
        </Link>
        <SubmitButton busy={saving} disabled={!valid} label={label} busyLabel="Saving..." describedBy={why ? whyId : undefined} />
      </div>
      {why && (
        <p id={whyId} className="form-missing" data-testid="form-missing">
          {label} needs: {missing.join("; ")}.
        </p>
      )}
    </>
  );
}
