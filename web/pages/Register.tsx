import { Link, useLocation } from "wouter";
import { registerSchema } from "../../src/schemas/auth.ts";
import { REGISTRATION_FAILED, registerErrorMessage } from "../api/error-messages.ts";
import { authApi } from "../api/endpoints.ts";
import { AccountFields } from "../components/auth/AccountFields.tsx";
import { AuthCard, SubmitButton } from "../components/auth/AuthCard.tsx";
import { useForm } from "../components/form.tsx";
import { useSubmit } from "../components/useSubmit.ts";
import { paths } from "../paths.ts";
import { notify } from "../state/toasts.ts";
import "../styles/auth.css";

export function RegisterPage() {
  const form = useForm(registerSchema, { firstName: "", lastName: "", email: "", password: "" });
  const [, navigate] = useLocation();
  const { busy, onSubmit, formRef } = useSubmit(form, {
    async send(body) {
      await authApi.register(body);
      notify.success("Registration Successful", "Your account has been created successfully. Please login with your credentials.");
      navigate(paths.login);
    },
    fail: (err) => notify.error(REGISTRATION_FAILED, registerErrorMessage(err)),
  });

  return (
    <AuthCard
      icon="user"
      title="Create your account"
      subtitle="Register to add your business, print its QR poster and send offers to your subscribers."
      footer={
        <>
          Already have an account? <Link href={paths.login}>Login</Link>
        </>
      }
    >
      <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-label="Register">
        <AccountFields form={form} />
        <SubmitButton busy={busy} label="Create Account" busyLabel="Creating account..." />
        <p className="auth-legal">
          By creating an account you agree to our <Link href={paths.terms}>Terms of Service</Link> and{" "}
          <Link href={paths.privacy}>Privacy Policy</Link>.
        </p>
      </form>
    </AuthCard>
  );
}
