import { type ReactNode, useId, useMemo, useState } from "react";
import type * as v from "valibot";
import { check, type FieldErrors } from "../../../src/schemas/check.ts";
import { maxLengths } from "./schema-limits.ts";

/**
 * What a control holds for each field of a schema's output: booleans as booleans (a checkbox), a choice among strings
 * as that choice or "" (nothing chosen yet), anything else as the string typed or selected. Forms type their values
 * with it, so a field added to a schema is a compile error in every form's initial values until the form handles it.
 */
export type FormValue<Out> = [NonNullable<Out>] extends [boolean]
  ? boolean
  : [NonNullable<Out>] extends [string]
    ? string extends NonNullable<Out>
      ? string
      : NonNullable<Out> | ""
    : string;
export type FormValues<S extends v.GenericSchema> = { -readonly [K in keyof v.InferOutput<S>]-?: FormValue<v.InferOutput<S>[K]> };

/**
 * Form state validated by the same valibot schema the API uses. Errors show once the form was submitted
 * (spec section 4: the 'submitted' flag) or once a field was touched; no request is sent while invalid. The initial
 * values are typed from the schema (NoInfer: the schema decides the shape, not the values passed).
 */
export function useForm<S extends v.GenericSchema, T extends Record<string, unknown> = FormValues<S>>(schema: S, initial: NoInfer<T>) {
  const [values, setValues] = useState<T>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  // The server's field errors of a 400 (a phone number libphonenumber refuses): shown until the field changes.
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const result = useMemo(() => check(schema, values), [schema, values]);
  const limits = useMemo(() => maxLengths(schema), [schema]);
  const errors: FieldErrors = result.ok ? {} : result.errors;

  function set<K extends keyof T>(key: K, value: T[K]) {
    setValues((old) => ({ ...old, [key]: value }));
    setServerErrors((old) => {
      if (!(key in old)) return old;
      const { [key as string]: _, ...rest } = old;
      return rest;
    });
  }
  function touch(key: keyof T & string) {
    setTouched((old) => (old[key] ? old : { ...old, [key]: true }));
  }
  /** The message to show under a field right now, if any. */
  function error(key: keyof T & string): string | undefined {
    return (submitted || touched[key] ? errors[key] : undefined) ?? serverErrors[key];
  }

  return {
    values,
    errors,
    valid: result.ok,
    output: result.ok ? (result.value as v.InferOutput<S>) : null,
    submitted,
    set,
    reset(next: T) {
      setValues(next);
      setSubmitted(false);
      setTouched({});
      setServerErrors({});
    },
    touch,
    error,
    /** Field messages the server sent back (a 400's `fields`), each shown until its field is changed. */
    setServerErrors,
    /**
     * One field's name, value, error, handlers and the schema's length limit, for a field component:
     * `<EmailField {...form.bind("email")} />`.
     */
    bind<K extends keyof T & string>(key: K) {
      return {
        name: key,
        value: values[key],
        error: error(key),
        max: limits[key],
        onChange: (value: T[K]) => set(key, value),
        onBlur: () => touch(key),
      };
    },
    /** Marks the form submitted; true when it is valid and may be sent. */
    submit(): boolean {
      setSubmitted(true);
      return result.ok;
    },
  };
}

/** What a field component takes from `form.bind(key)` (or the same props written out). */
export interface Bound<V> {
  value: V;
  error?: string;
  onChange: (value: V) => void;
  onBlur: () => void;
}
export type BoundText = Bound<string>;

interface FieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby"?: string; className: string }) => ReactNode;
}

/** The ids of a field's hint and error (as FieldNotes renders them) for its control's aria-describedby. */
export function notesIds(id: string, hint: ReactNode, error: ReactNode): string | undefined {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

/** A field's hint and error line (an alert), with the ids notesIds names. */
export function FieldNotes({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | null }) {
  return (
    <>
      {hint && (
        <div id={`${id}-hint`} className="field-hint">
          {hint}
        </div>
      )}
      {error && (
        <div id={`${id}-error`} className="field-error" role="alert">
          {error}
        </div>
      )}
    </>
  );
}

/** A labelled control with its hint and error, wired for screen readers. */
export function Field({ label, error, hint, children }: FieldProps) {
  const id = useId();
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": !!error, "aria-describedby": notesIds(id, hint, error), className: "input" })}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** The 'Please fix the following errors:' box of the login and register screens. */
export function ErrorSummary({ errors, show }: { errors: FieldErrors; show: boolean }) {
  const messages = [...new Set(Object.values(errors))];
  if (!show || messages.length === 0) return null;
  return (
    <div className="alert alert-error" role="alert">
      <strong>Please fix the following errors:</strong>
      <ul>
        {messages.map((m) => (
          <li key={m}>{m}</li>
        ))}
      </ul>
    </div>
  );
}
