import { useRef, useState } from "react";
import { type BoundText, Field } from "../../../shared/components/form.tsx";

type InputWiring = { id: string; "aria-invalid": boolean; "aria-describedby"?: string; className: string };

/** A password input with a Show/Hide toggle (people on phones mistype passwords they cannot see). */
function PasswordInput({
  wiring,
  name,
  value,
  autoComplete,
  onChange,
  onBlur,
}: {
  wiring: InputWiring;
  name: string;
  value: string;
  autoComplete: "current-password" | "new-password";
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const [shown, setShown] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  return (
    <div className="password-input">
      <input
        {...wiring}
        name={name}
        type={shown ? "text" : "password"}
        autoComplete={autoComplete}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={(e) => {
          // Reaching for Show/Hide is not leaving the field: no error for it yet.
          if (e.relatedTarget !== toggle.current) onBlur();
        }}
      />
      <button ref={toggle} type="button" className="password-toggle" aria-controls={wiring.id} onClick={() => setShown((s) => !s)}>
        {shown ? "Hide" : "Show"}
        <span className="sr-only"> password</span>
      </button>
    </div>
  );
}

/** A labelled password field (with Show/Hide), its hint and error; spread `form.bind(key)` into it. */
export function PasswordField({
  label,
  hint,
  error,
  ...input
}: BoundText & { label: string; hint?: string; autoComplete: "current-password" | "new-password"; name: string }) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(wiring) => <PasswordInput wiring={wiring} {...input} />}
    </Field>
  );
}
