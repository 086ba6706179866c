import { useSignals } from "@preact/signals-react/runtime";
import { UNREACHABLE_LINK_FIX, UNREACHABLE_LINK_WARNING } from "../../../../src/schemas/public-url.ts";
import type { SettingsView } from "../../../../src/schemas/settings.ts";
import { site } from "../../../shared/state/site.ts";
import { usesTwilio } from "../settings-form.ts";
import type { SettingFields, SettingsFormState } from "./setting-fields.tsx";
import { TestEmailButton } from "./TestEmailButton.tsx";

// The Settings form's sections, in the order the page shows them.

/** The address customers' phones open, with "Use this address". */
export function PublicAddressSection({ view, form, field }: { view: SettingsView; form: SettingsFormState; field: SettingFields["field"] }) {
  useSignals();
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const info = site.value;
  return (
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
  );
}

/** The brand name and contact mailbox. */
export function BrandSection({ field }: Pick<SettingFields, "field">) {
  return (
    <section className="card settings-section" aria-labelledby="settings-brand">
      <h2 id="settings-brand">Brand</h2>
      <p className="muted">The name and mailbox the pages, footer, FAQ, terms and privacy policy give. Leave a field empty for the default.</p>
      <div className="two-cols">
        {field("brandName", "Brand name")}
        {field("contactEmail", "Contact email", undefined, { type: "email", inputMode: "email" })}
      </div>
    </section>
  );
}

/** Twilio (or the sandbox), the senders, the send rate and the price for the estimate. */
export function MessagesSection({ view, field, secret }: { view: SettingsView } & Pick<SettingFields, "field" | "secret">) {
  const twilio = usesTwilio(view);
  return (
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
        {field("senderRegistration", "Sender registration", "A US number sends nothing until the carriers approve it: unregistered, pending or approved. unregistered unless set; the registration kit has the form's fields.", { placeholder: "unregistered" })}
        {field("sendRate", "Send rate", "Messages per second: your sender number's limit.", { inputMode: "decimal" })}
        {field("pricePerSegment", "Price per SMS segment (USD)", "For the cost estimate before each broadcast; 0.0083 unless set.", { inputMode: "decimal", placeholder: "0.0083" })}
        {field("keywordReplies", "Keyword replies", "Who answers STOP, START and HELP: twilio (its Advanced Opt-Out; paste the texts from the setup checklist there) or nearcast. twilio unless set.", { placeholder: "twilio" })}
      </div>
    </section>
  );
}

/** The SMTP server and sender, and the test email. */
export function EmailSection({ view, field, secret }: { view: SettingsView } & Pick<SettingFields, "field" | "secret">) {
  return (
    <section className="card settings-section" aria-labelledby="settings-email">
      <h2 id="settings-email">Email</h2>
      <p className="muted">Password-reset links and the test email are sent through this SMTP server.</p>
      <div className="two-cols">
        {secret("smtpUrl", "SMTP URL", "SMTP URL", "smtp://user:password@host:587 (the server must offer STARTTLS) or smtps://user:password@host:465; add ?insecure=1 only for a relay without TLS. Write-only.")}
        {field("mailFrom", "From address", "e.g. Corner Deals <news@example.com>", { placeholder: "news@example.com" })}
      </div>
      <TestEmailButton configured={!!view.smtpUrl.set} />
    </section>
  );
}

/** The upload quota per owner. */
export function UploadsSection({ field }: Pick<SettingFields, "field">) {
  return (
    <section className="card settings-section" aria-labelledby="settings-uploads">
      <h2 id="settings-uploads">Uploads</h2>
      <p className="muted">The room each owner, you included, has for logos and images. Images no business or broadcast uses are deleted after 24 hours.</p>
      {field("uploadQuotaMb", "Upload quota (MB)", "Per owner; 200 MB unless set.", { inputMode: "numeric" })}
    </section>
  );
}

/** Quiet hours and the daily cap per person. */
export function QuietHoursSection({ field }: Pick<SettingFields, "field">) {
  return (
    <section className="card settings-section" aria-labelledby="settings-quiet">
      <h2 id="settings-quiet">Quiet hours</h2>
      <p className="muted">Marketing texts wait (never dropped) while it is quiet in the recipient's time zone, and past the daily cap.</p>
      <div className="two-cols">
        {field("quietHours", "Quiet hours", "HH:MM-HH:MM in the recipient's time, or off; 20:00-08:00 unless set.", { placeholder: "20:00-08:00" })}
        {field("maxPerDay", "Messages per person per 24 h", "From each business (each shop counts its own); 3 unless set, 0 for no cap.", { inputMode: "numeric" })}
      </div>
    </section>
  );
}

/** Who may sign up, and the texts per hour that sign-ups may trigger. */
export function SignupsSection({ field }: Pick<SettingFields, "field">) {
  return (
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
  );
}
