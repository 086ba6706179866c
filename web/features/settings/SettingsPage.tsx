import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useMemo, useState } from "react";
import { UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../../../src/schemas/public-url.ts";
import { SETTING_DEFAULTS, type SettingKey, type SettingsView, type SettingView } from "../../../src/schemas/settings.ts";
import { ApiError } from "../../shared/api/client.ts";
import { settingsApi } from "./api.ts";
import { useForm } from "../../shared/components/form.tsx";
import { SubmitButton } from "../../shared/components/FormActions.tsx";
import { ListLoadFailed } from "../../shared/components/ListPage.tsx";
import { Spinner } from "../../shared/components/Spinner.tsx";
import { TextField } from "../../shared/components/TextFields.tsx";
import { useSubmit } from "../../shared/components/useSubmit.ts";
import { loadSite, site } from "../../shared/state/site.ts";
import { notify } from "../../shared/state/toasts.ts";
import { changesOf, settingsFormSchema, usesTwilio, valuesOf } from "./settings-form.ts";
import { WhatsAppTemplates } from "./WhatsAppTemplates.tsx";
import "../../shared/styles/settings.css";

export const SAVED_TITLE = "Settings Saved";
export const SAVED_MESSAGE = "The new settings are in use.";
export const NOT_SAVED_TITLE = "Settings Not Saved";
export const TEST_EMAIL_SENT = "Test Email Sent";
export const TEST_EMAIL_FAILED = "Test Email Failed";

/** /settings (admin): the public address, brand, Twilio and email settings. */
export function SettingsPage() {
  const [view, setView] = useState<SettingsView | null>(null);
  const [failed, setFailed] = useState(false);
  // Bumped after each save: the form starts over from the saved values (and its submit is ready again).
  const [version, setVersion] = useState(0);

  function load() {
    setFailed(false);
    settingsApi
      .get()
      .then(setView)
      .catch((err) => {
        console.error("Error loading settings:", err);
        setFailed(true);
      });
  }
  useEffect(load, []);

  return (
    <section className="container page settings-page">
      <header className="page-header">
        <div>
          <h1>Settings</h1>
          <p className="page-subtitle">How this server presents itself and sends messages. A setting given by the server's environment is shown locked.</p>
        </div>
      </header>
      {failed ? (
        <ListLoadFailed failure={{ what: "settings", retry: load }} />
      ) : view === null ? (
        <Spinner label="Loading settings..." />
      ) : (
        <SettingsForm
          key={version}
          view={view}
          onSaved={(next) => {
            setView(next);
            setVersion((n) => n + 1);
          }}
        />
      )}
      {view !== null && <WhatsAppTemplates />}
    </section>
  );
}

/** "Set by NEARCAST_PUBLIC_URL" for a setting the environment gives; otherwise `hint`. */
function lockedHint(view: SettingView, hint?: string): string | undefined {
  return view.source === "env" ? `Set by ${view.env}` : hint;
}

function SettingsForm({ view, onSaved }: { view: SettingsView; onSaved: (next: SettingsView) => void }) {
  useSignals();
  const initial = useMemo(() => valuesOf(view), [view]);
  const form = useForm(settingsFormSchema, initial);
  // Secrets the admin asked to remove (an empty secret field otherwise means "keep it").
  const [removed, setRemoved] = useState<ReadonlySet<SettingKey>>(new Set());
  const changes = changesOf(view, initial, form.values, removed);
  const dirty = Object.keys(changes).length > 0;

  const { busy, onSubmit, formRef } = useSubmit(form, {
    blocked: !dirty,
    async send() {
      const next = await settingsApi.update(changes);
      notify.success(SAVED_TITLE, SAVED_MESSAGE);
      // Brand and public URL show everywhere (footer, QR modal, posters): read them again.
      void loadSite();
      onSaved(next);
    },
    fail(err) {
      if (err instanceof ApiError && err.status === 400) form.setServerErrors(err.fields);
      notify.error(NOT_SAVED_TITLE, err instanceof Error ? err.message : String(err));
    },
  });

  /** A plain setting's field: bound to the form, locked when the environment sets it. */
  const field = (key: SettingKey, label: string, hint?: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      hint={lockedHint(view[key], hint)}
      disabled={view[key].source === "env"}
      autoComplete="off"
      placeholder={(SETTING_DEFAULTS as Partial<Record<SettingKey, string>>)[key]}
      {...extra}
      {...form.bind(key)}
    />
  );

  /** A write-only setting: an empty password field; typing replaces the saved value; "Remove" clears it. */
  const secret = (key: "twilioAuthToken" | "smtpUrl", label: string, noun: string, hint: string) => {
    const s = view[key];
    const removing = removed.has(key);
    const placeholder = s.source === "env" ? `Set by ${s.env}` : removing ? "Removed when you save" : s.set ? "Set (type a new one to replace it)" : "Not set";
    return (
      <div className="settings-secret">
        <TextField
          label={label}
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          placeholder={placeholder}
          hint={s.source === "env" ? `Set by ${s.env}${s.hint ? `: ${s.hint}` : ""}` : s.set && s.hint && !removing ? `${hint} Saved: ${s.hint}` : hint}
          disabled={s.source === "env"}
          {...form.bind(key)}
        />
        {s.source === "saved" && s.set && (
          <button
            type="button"
            className="link-button settings-remove"
            onClick={() =>
              setRemoved((old) => {
                const next = new Set(old);
                if (removing) next.delete(key);
                else next.add(key);
                return next;
              })
            }
          >
            {removing ? `Keep the saved ${noun}` : `Remove the saved ${noun}`}
          </button>
        )}
      </div>
    );
  };

  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const info = site.value;
  const twilio = usesTwilio(view);

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Settings" className="settings-form">
      <section className="card settings-section" aria-labelledby="settings-public">
        <h2 id="settings-public">Public address</h2>
        <p className="muted">The address customers' phones open: every QR code, poster, image link and Twilio webhook is built on it.</p>
        {info?.publicUrlPrivate && (
          <div className="alert alert-warning" role="alert">
            <strong>{UNREACHABLE_LINK_WARNING}</strong>
            Links and QR codes now use {info.publicUrl}. {UNREACHABLE_LINK_FIX}
          </div>
        )}
        {field(
          "publicUrl",
          "Public URL",
          info && info.publicUrlSource === "request" ? `Not set: links now use the address this page was opened on (${info.publicUrl}).` : "For example https://deals.example.com",
          { type: "url", inputMode: "url", placeholder: "https://deals.example.com" },
        )}
        {view.publicUrl.source !== "env" && (
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={!origin || form.values.publicUrl === origin}
            onClick={() => {
              form.set("publicUrl", origin);
              form.touch("publicUrl");
            }}
          >
            Use this address ({origin})
          </button>
        )}
      </section>

      <section className="card settings-section" aria-labelledby="settings-brand">
        <h2 id="settings-brand">Brand</h2>
        <p className="muted">The name and mailbox the pages, footer, FAQ, terms and privacy policy give. Leave a field empty for the default.</p>
        <div className="two-cols">
          {field("brandName", "Brand name")}
          {field("contactEmail", "Contact email", undefined, { type: "email", inputMode: "email" })}
        </div>
      </section>

      <section className="card settings-section" aria-labelledby="settings-messages">
        <h2 id="settings-messages">Messages</h2>
        <p className={`settings-mode ${twilio ? "is-twilio" : "is-sandbox"}`} role="status">
          {twilio ? (
            <>
              <span className="badge badge-success">Twilio</span> Messages are sent through your Twilio account.
            </>
          ) : (
            <>
              <span className="badge badge-warning">Sandbox</span> Messages are recorded here, not sent, until the account SID, auth token and a
              sender are set.
            </>
          )}
        </p>
        <div className="two-cols">
          {field("twilioAccountSid", "Account SID", "AC followed by 32 characters, from the Twilio console.", { spellCheck: false, placeholder: "AC..." })}
          {secret("twilioAuthToken", "Auth token", "auth token", "Write-only: never shown again.")}
          {field("twilioFrom", "SMS sender", "Your Twilio number, e.g. +15551234567.", { type: "tel", placeholder: "+15551234567" })}
          {field("twilioMessagingServiceSid", "Messaging Service SID", "Instead of an SMS sender: MG followed by 32 characters.", { spellCheck: false, placeholder: "MG..." })}
          {field("twilioWhatsAppFrom", "WhatsApp sender", "Your WhatsApp-enabled number, e.g. +15551234567.", { type: "tel", placeholder: "+15551234567" })}
          {field("sendRate", "Send rate", "Messages per second: your sender number's limit.", { inputMode: "decimal" })}
          {field("pricePerSegment", "Price per SMS segment (USD)", "For the cost estimate before each broadcast; 0.0083 unless set.", { inputMode: "decimal", placeholder: "0.0083" })}
        </div>
      </section>

      <section className="card settings-section" aria-labelledby="settings-email">
        <h2 id="settings-email">Email</h2>
        <p className="muted">Password-reset links and the test email are sent through this SMTP server.</p>
        <div className="two-cols">
          {secret("smtpUrl", "SMTP URL", "SMTP URL", "smtp://user:password@host:587 (the server must offer STARTTLS) or smtps://user:password@host:465; add ?insecure=1 only for a relay without TLS. Write-only.")}
          {field("mailFrom", "From address", "e.g. Corner Deals <news@example.com>", { placeholder: "news@example.com" })}
        </div>
        <TestEmailButton configured={!!view.smtpUrl.set} />
      </section>

      <section className="card settings-section" aria-labelledby="settings-uploads">
        <h2 id="settings-uploads">Uploads</h2>
        <p className="muted">The room each owner, you included, has for logos and images. Images no business or broadcast uses are deleted after 24 hours.</p>
        {field("uploadQuotaMb", "Upload quota (MB)", "Per owner; 200 MB unless set.", { inputMode: "numeric" })}
      </section>

      <section className="card settings-section" aria-labelledby="settings-quiet">
        <h2 id="settings-quiet">Quiet hours</h2>
        <p className="muted">Marketing texts wait (never dropped) while it is quiet in the recipient's time zone, and past the daily cap.</p>
        <div className="two-cols">
          {field("quietHours", "Quiet hours", "HH:MM-HH:MM in the recipient's time, or off; 20:00-08:00 unless set.", { placeholder: "20:00-08:00" })}
          {field("maxPerDay", "Messages per person per 24 h", "Across all businesses; 3 unless set, 0 for no cap.", { inputMode: "numeric" })}
        </div>
      </section>

      <section className="card settings-section" aria-labelledby="settings-signups">
        <h2 id="settings-signups">Sign-ups</h2>
        <p className="muted">
          Who the public subscribe page takes, and how many confirmation texts it may trigger: a form that texts any number can be abused to run up your bill.
        </p>
        <div className="two-cols">
          {field("allowedCountries", "Allowed countries", "Two-letter codes, e.g. US,CA, or * for any; mobile numbers only. The default country unless set.", { placeholder: "US" })}
          {field("ownerSignup", "Owner sign-up", "approval (owners wait for you before anything is texted), open, or closed (only you create owners). approval unless set.", { placeholder: "approval" })}
          {field("confirmationsPerHour", "Texts per hour (whole server)", "Confirmations, welcome texts, test sends and codes, all owners together; past it confirmations wait and tests are refused. 200 unless set.", { inputMode: "numeric" })}
          {field("ownerTextsPerHour", "Texts per owner per hour", "The same, for each owner. 50 unless set.", { inputMode: "numeric" })}
          {field("whatsappConfirmationTemplate", "WhatsApp confirmation template", "An approved utility template's Content SID (HX…): {{1}} business, {{2}} messages per week. Without it, WhatsApp subscribers get no confirmation.", { placeholder: "HX…" })}
        </div>
      </section>

      <div className="form-actions settings-actions">
        {dirty && <span className="muted settings-unsaved">Unsaved changes</span>}
        <SubmitButton busy={busy} disabled={!dirty} label="Save Settings" busyLabel="Saving..." />
      </div>
    </form>
  );
}

/** Sends a test email through the saved SMTP settings; the server's answer (or refusal) shows as a toast. */
function TestEmailButton({ configured }: { configured: boolean }) {
  const [sending, setSending] = useState(false);
  async function send() {
    setSending(true);
    try {
      const res = await settingsApi.testEmail();
      notify.success(TEST_EMAIL_SENT, res.message);
    } catch (err) {
      notify.error(TEST_EMAIL_FAILED, err instanceof Error ? err.message : String(err));
    } finally {
      setSending(false);
    }
  }
  return (
    <div className="settings-test-email">
      <button type="button" className="btn btn-secondary" disabled={!configured || sending} aria-busy={sending} onClick={send}>
        {sending && <span className="spinner" aria-hidden="true" />}
        {sending ? "Sending..." : "Send test email"}
      </button>
      <span className="muted">{configured ? "Uses the saved settings; sent to your own address." : "Save an SMTP URL first."}</span>
    </div>
  );
}
