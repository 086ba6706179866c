import type { BoundText } from "../../../shared/components/form.tsx";
import { TextField } from "../../../shared/components/TextFields.tsx";

/** The account screens' email field; spread `form.bind("email")` into it. */
export function EmailField(props: BoundText) {
  return (
    <TextField
      {...props}
      label="Email"
      name="email"
      type="email"
      inputMode="email"
      autoComplete="email"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      placeholder="you@example.com"
    />
  );
}
