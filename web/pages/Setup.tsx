import { useSignals } from "@preact/signals-react/runtime";
import { useLocation } from "wouter";
import { registerSchema } from "../../src/schemas/auth.ts";
import { ApiError } from "../api/client.ts";
import { registerErrorMessage, serverText } from "../api/error-messages.ts";
import { authApi } from "../api/endpoints.ts";
import { AccountFields } from "../components/auth/AccountFields.tsx";
import { AuthCard, SubmitButton } from "../components/auth/AuthCard.tsx";
import { useForm } from "../components/form.tsx";
import { useSubmit } from "../components/useSubmit.ts";
import { paths } from "../paths.ts";
import { startSession } from "../state/session.ts";
import { brandName, loadSite, site } from "../state/site.ts";
import { notify } from "../state/toasts.ts";
import "../styles/auth.css";

export const SETUP_FAILED = "Setup Failed";

/** /setup — first run: creates this server's first admin account (POST /api/setup) and logs it in. */
export function SetupPage() {
  useSignals();
  const form = useForm(registerSchema, { firstName: "", lastName: "", email: "", password: "" });
  const [, navigate] = useLocation();
  const { busy, onSubmit, formRef } = useSubmit(form, {
    async send(body) {
      const { token, user } = await authApi.setup(body);
      startSession(token, user);
      await loadSite();
      // The server has just made this admin: setup is done even if reloading the site's facts failed.
      if (site.value?.setupNeeded) site.value = { ...site.value, setupNeeded: false };
      notify.success("Setup Complete", `Welcome, ${user.firstName}! You are the admin of this server.`);
      navigate(paths.home, { replace: true });
    },
    fail(err) {
      // Someone else finished setup first: the server's sentence says what to do, and the site's facts are stale.
      if (err instanceof ApiError && err.status === 409) {
        notify.error(SETUP_FAILED, serverText(err.body) ?? registerErrorMessage(err));
        void loadSite();
        return;
      }
      notify.error(SETUP_FAILED, registerErrorMessage(err));
    },
  });

  return (
    <AuthCard
      icon="key"
      title="Set up this server"
      subtitle={
        <>
          This creates the first admin account of this {brandName.value} server. The admin manages business types and
          settings; everyone who registers later gets a business owner account.
        </>
      }
    >
      <form ref={formRef} className="auth-form" onSubmit={onSubmit} noValidate aria-label="Set up">
        <AccountFields form={form} />
        <SubmitButton busy={busy} label="Create Admin Account" busyLabel="Creating account..." />
      </form>
    </AuthCard>
  );
}
