import type { ReactNode } from "react";
import { type BoundText, Field } from "./form.tsx";

/** A labelled phone number field (phone keypad, US example as placeholder), its hint and error. */
export function PhoneField({
  label,
  hint,
  autoComplete,
  required = false,
  value,
  error,
  onChange,
  onBlur,
}: BoundText & {
  label: string;
  hint: ReactNode;
  /** "tel" where the number is the user's own; "off" where it is someone else's. */
  autoComplete: "tel" | "off";
  /** Marked aria-required (the form says so elsewhere). */
  required?: boolean;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(wiring) => (
        <input
          {...wiring}
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete={autoComplete}
          placeholder="(415) 555-0134"
          aria-required={required ? "true" : undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
      )}
    </Field>
  );
}
