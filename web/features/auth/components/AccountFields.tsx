import { PASSWORD_MIN, type registerSchema } from "../../../../src/schemas/auth.ts";
import { ErrorSummary, type useForm } from "../../../shared/components/form.tsx";
import { TextField } from "../../../shared/components/TextFields.tsx";
import { EmailField } from "./EmailField.tsx";
import { PasswordField } from "./PasswordField.tsx";

type AccountForm = ReturnType<typeof useForm<typeof registerSchema>>;

/** The fields of a new account (Register, and the first admin on Setup), with the error summary above them. */
export function AccountFields({ form }: { form: AccountForm }) {
  return (
    <>
      <ErrorSummary errors={form.errors} show={form.submitted} />
      <div className="two-cols">
        <TextField label="First name" autoComplete="given-name" autoCapitalize="words" {...form.bind("firstName")} />
        <TextField label="Last name" autoComplete="family-name" autoCapitalize="words" {...form.bind("lastName")} />
      </div>
      <EmailField {...form.bind("email")} />
      <PasswordField label="Password" hint={`At least ${PASSWORD_MIN} characters.`} autoComplete="new-password" {...form.bind("password")} />
    </>
  );
}

