import { Link, useLocation } from "wouter";
import { registerSchema } from "../../../src/schemas/auth.ts";
import { REGISTRATION_FAILED, registerErrorMessage } from "./error-messages.ts";
import { authApi } from "./api.ts";
import { AccountFields } from "./components/AccountFields.tsx";
import { AuthCard, SubmitButton } from "./components/AuthCard.tsx";
import { useForm } from "../../shared/components/form.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/auth.css";
import { useSignals } from "@preact/signals-react/runtime";
import { SIGNUP_CLOSED } from "../../../src/schemas/owner-approval.ts";
import { site } from "../../shared/state/site.ts";

/** Under ownerSignup "approval": what a new owner should expect. */
export const APPROVAL_NOTE = "New accounts wait for the administrator's approval before anything is texted; you can set up your business meanwhile.";

export function RegisterPage() {
  useSignals();
  const signup = site.value?.ownerSignup;
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
      {signup === "closed" ? (
        <div className="alert alert-info" role="status" data-testid="signup-closed">
          {SIGNUP_CLOSED}
        </div>
      ) : (
      <form ref={formRef} className="auth-form" method="post" onSubmit={onSubmit} noValidate aria-label="Register">
        {signup === "approval" && <p className="muted auth-note">{APPROVAL_NOTE}</p>}
        <AccountFields form={form} />
        <SubmitButton busy={busy} label="Create Account" busyLabel="Creating account..." />
        <p className="auth-legal">
          By creating an account you agree to our <Link href={paths.terms}>Terms of Service</Link> and{" "}
          <Link href={paths.privacy}>Privacy Policy</Link>.
        </p>
      </form>
      )}
    </AuthCard>
  );
}
