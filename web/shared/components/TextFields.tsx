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

/** Splits a text field's props into the Field's (label, hint with counter, error) and the control's own. */
function split<C>({ label, name, hint, max, counter, value, error, onChange, onBlur, ...control }: TextProps & C) {
  const shown = counter && max !== undefined ? (
    <>
      <span>{hint}</span>
      <CharCounter length={value.length} max={max} />
    </>
  ) : (
    hint
  );
  const bound = { name, value, onBlur, onChange: (e: { target: { value: string } }) => onChange(e.target.value) };
  return { field: { label, error, hint: shown }, control, bound };
}

/** A labelled one-line text input, its hint (and counter) and error; spread `form.bind(key)` into it. */
export function TextField(props: TextProps & Passed<InputHTMLAttributes<HTMLInputElement>> & { ref?: Ref<HTMLInputElement> }) {
  const { field, control, bound } = split(props);
  return <Field {...field}>{(wiring) => <input type="text" {...control} {...wiring} {...bound} />}</Field>;
}

/** A labelled multi-line text field, its hint (and counter) and error; spread `form.bind(key)` into it. */
export function TextAreaField(props: TextProps & Passed<TextareaHTMLAttributes<HTMLTextAreaElement>> & { ref?: Ref<HTMLTextAreaElement> }) {
  const { field, control, bound } = split(props);
  return <Field {...field}>{(wiring) => <textarea {...control} {...wiring} {...bound} />}</Field>;
}
