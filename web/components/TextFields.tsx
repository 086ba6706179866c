import type { InputHTMLAttributes, ReactNode, Ref, TextareaHTMLAttributes } from "react";
import { type BoundText, Field } from "./form.tsx";

/** The n/max beside a field's hint; flagged once the text is over (the field's error says why). */
export function CharCounter({ length, max }: { length: number; max: number }) {
  return (
    <span className={`field-counter${length > max ? " over" : ""}`} aria-live="polite">
      {length}/{max}
    </span>
  );
}

interface TextProps extends BoundText {
  label: string;
  name: string;
  hint?: ReactNode;
  /** The schema's length limit (form.bind passes it); shown as n/max only when `counter` is set. */
  max?: number;
  /** Show n/max beside the hint, for texts people tend to write long (messages, descriptions). */
  counter?: boolean;
}

// The control's own attributes (placeholder, autoComplete, rows ...); the wiring and the bound value come from above.
type Passed<A> = Omit<A, keyof TextProps | "id" | "className" | "children" | "defaultValue">;

function hintOf({ hint, counter, max, value }: Pick<TextProps, "hint" | "counter" | "max" | "value">): ReactNode {
  if (!counter || max === undefined) return hint;
  return (
    <>
      <span>{hint}</span>
      <CharCounter length={value.length} max={max} />
    </>
  );
}

/** A labelled one-line text input, its hint (and counter) and error; spread `form.bind(key)` into it. */
export function TextField({
  label,
  name,
  hint,
  max,
  counter,
  value,
  error,
  onChange,
  onBlur,
  ...input
}: TextProps & Passed<InputHTMLAttributes<HTMLInputElement>> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <Field label={label} error={error} hint={hintOf({ hint, counter, max, value })}>
      {(wiring) => (
        <input type="text" {...input} {...wiring} name={name} value={value} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />
      )}
    </Field>
  );
}

/** A labelled multi-line text field, its hint (and counter) and error; spread `form.bind(key)` into it. */
export function TextAreaField({
  label,
  name,
  hint,
  max,
  counter,
  value,
  error,
  onChange,
  onBlur,
  ...textarea
}: TextProps & Passed<TextareaHTMLAttributes<HTMLTextAreaElement>> & { ref?: Ref<HTMLTextAreaElement> }) {
  return (
    <Field label={label} error={error} hint={hintOf({ hint, counter, max, value })}>
      {(wiring) => <textarea {...textarea} {...wiring} name={name} value={value} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} />}
    </Field>
  );
}
