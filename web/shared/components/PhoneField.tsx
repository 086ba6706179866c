import type { ReactNode } from "react";
import type { BoundText } from "./form.tsx";
import { TextField } from "./TextFields.tsx";

/** A labelled phone number field (phone keypad, US example as placeholder), its hint and error. */
export function PhoneField({
  required = false,
  ...props
}: BoundText & {
  label: string;
  hint: ReactNode;
  /** "tel" where the number is the user's own; "off" where it is someone else's. */
  autoComplete: "tel" | "off";
  /** Marked aria-required (the form says so elsewhere). */
  required?: boolean;
}) {
  return (
    <TextField
      {...props}
      name="phone"
      type="tel"
      inputMode="tel"
      placeholder="(415) 555-0134"
      aria-required={required ? "true" : undefined}
    />
  );
}
