import { useState } from "react";
import { notify } from "../../../shared/state/toasts.ts";
import { settingsApi } from "../api.ts";

export const TEST_EMAIL_SENT = "Test Email Sent";
export const TEST_EMAIL_FAILED = "Test Email Failed";

/** Sends a test email through the saved SMTP settings; the server's answer (or refusal) shows as a toast. */
export function TestEmailButton({ configured }: { configured: boolean }) {
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
