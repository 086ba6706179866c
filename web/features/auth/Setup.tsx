import { useSignals } from "@preact/signals-react/runtime";
import { useState } from "react";
import { useLocation, useSearch } from "wouter";
import { isPrivateLink, UNREACHABLE_LINK_WARNING } from "../../../src/schemas/public-url.ts";
import { setupSchema } from "../../../src/schemas/setup.ts";
import { ApiError } from "../../shared/api/client.ts";
import { registerErrorMessage, serverText } from "./error-messages.ts";
import { authApi } from "./api.ts";
import { AccountFields } from "./components/AccountFields.tsx";
import { AuthCard, SubmitButton } from "./components/AuthCard.tsx";
import { useForm } from "../../shared/components/form.tsx";
import { TextField } from "../../shared/components/TextFields.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { paths } from "../../shared/paths.ts";
import { startSession } from "../../shared/state/session.ts";
import { brandName, loadSite, site } from "../../shared/state/site.ts";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/auth.css";

export const SETUP_FAILED = "Setup Failed";
/** Where the code is, for a person who opened /setup without the link. */
export const SETUP_CODE_WHERE =
  "The setup link is printed in the terminal where nearcast serve runs, and in its log (journalctl -u nearcast). Open that link, or paste its code here.";

/**
 * /setup — first run: creates this server's first admin account (POST /api/setup) and logs it in. The setup link
 * `nearcast serve` printed carries the code (?code=), kept out of sight; without it the screen asks for it. The
 * address this page was opened at becomes the public URL (emailed links and Twilio need one), unless changed here.
 */
export function SetupPage() {
  useSignals();
  const fromLink = new URLSearchParams(useSearch()).get("code")?.trim() ?? "";
  // The code field shows when the link had none, or once the server refused the one it had.
  const [askCode, setAskCode] = useState(fromLink === "");
  const info = site.value;
  const urlLocked = info?.publicUrlSource === "env";
  const form = useForm(setupSchema, {
    firstName: "",
    lastName: "",
    email: "",
    password: "",
    code: fromLink,
    publicUrl: info?.publicUrlSource === "saved" ? info.publicUrl : window.location.origin,
  });
  const [, navigate] = useLocation();
  const { busy, onSubmit, formRef } = useSubmit(form, {
    async send(body) {
      const { token, user } = await authApi.setup({ ...body, publicUrl: urlLocked ? "" : body.publicUrl });
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
      // A missing or wrong code (an old link, a typo): the field shows, with the server's sentence under it.
      if (err instanceof ApiError && err.status === 403) {
        const text = serverText(err.body) ?? registerErrorMessage(err);
        setAskCode(true);
        form.setServerErrors({ code: text });
        notify.error(SETUP_FAILED, text);
        return;
      }
      notify.error(SETUP_FAILED, registerErrorMessage(err));
    },
  });
  const url = form.values.publicUrl.trim();

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
        {/* The account's fields come first: their error summary heads the form. */}
        <AccountFields form={form} />
        {askCode && (
          <TextField label="Setup code" hint={SETUP_CODE_WHERE} autoComplete="off" spellCheck={false} {...form.bind("code")} />
        )}
        {!urlLocked && (
          <TextField
            label="Public URL"
            type="url"
            inputMode="url"
            autoComplete="off"
            hint={
              <>
                The address customers and emailed links use: this page's, unless they reach the server at another one
                (for example https://deals.example.com).
                {url && isPrivateLink(url) && <> {UNREACHABLE_LINK_WARNING}; you can change it later in Settings.</>}
              </>
            }
            {...form.bind("publicUrl")}
          />
        )}
        <SubmitButton busy={busy} label="Create Admin Account" busyLabel="Creating account..." />
      </form>
    </AuthCard>
  );
}
