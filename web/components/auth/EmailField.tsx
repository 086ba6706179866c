import { type BoundText, Field } from "../form.tsx";

/** The account screens' email field; spread `form.bind("email")` into it. */
export function EmailField({ value, error, onChange, onBlur }: BoundText) {
  return (
    <Field label="Email" error={error}>
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
          value={value}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
        />
      )}
    </Field>
  );
}
