import type { ReactNode } from "react";
import { type Bound, type BoundText, Field } from "./form.tsx";

export interface Choice {
  value: string;
  label: string;
}

/** A labelled drop-down whose first option (value "") asks for a choice; spread `form.bind(key)` into it. */
export function SelectField({
  label,
  name,
  hint,
  placeholder,
  choices,
  required = false,
  value,
  error,
  onChange,
  onBlur,
}: BoundText & {
  label: string;
  name: string;
  hint?: ReactNode;
  /** The text of the empty first option ("Select a business type"). */
  placeholder: string;
  choices: Choice[];
  /** Marked aria-required (the form says so elsewhere). */
  required?: boolean;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(wiring) => (
        <select
          {...wiring}
          name={name}
          aria-required={required ? "true" : undefined}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        >
          <option value="">{placeholder}</option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** An on/off field with a line saying what it means; spread `form.bind(key)` into it. */
export function CheckboxField({
  label,
  note,
  name,
  className,
  value,
  onChange,
}: Pick<Bound<boolean>, "value" | "onChange"> & {
  label: string;
  /** What turning it off does, under the label. */
  note: string;
  name: string;
  /** Added after "checkbox checkbox-field". */
  className?: string;
}) {
  return (
    <label className={`checkbox checkbox-field${className ? ` ${className}` : ""}`}>
      <input type="checkbox" name={name} checked={value} onChange={(e) => onChange(e.target.checked)} />
      <span>
        {label}
        <small className="muted">{note}</small>
      </span>
    </label>
  );
}
