import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef, useState } from "react";
import { CODE_DIGITS } from "../../../../src/schemas/phone-verification.ts";
import { ApiError, CONNECTION_ERROR } from "../../../shared/api/client.ts";
import { phoneApi } from "../api/before-send.ts";
import { currentUser } from "../../../shared/state/session.ts";
import { onEnter } from "./enter-key.ts";

export const SEND_CODE_LABEL = "Text me a code";
export const RESEND_CODE_LABEL = "Send a new code";
export const VERIFY_LABEL = "Verify";
export const CODE_LABEL = "Verification code";
export const VERIFIED_BADGE = "Verified";
export const NOT_VERIFIED_BADGE = "Not verified";

function errorText(err: unknown): string {
  if (!(err instanceof ApiError)) return "Something went wrong. Please try again.";
  if (err.status === 0) return CONNECTION_ERROR;
  return err.fields.code || err.message || "Something went wrong. Please try again.";
}

/** The phone's badge: Verified (tests may go there) or Not verified. */
export function PhoneBadge({ verified }: { verified: boolean }) {
  return (
    <span className={`badge ${verified ? "badge-success" : "badge-warning"}`} data-testid="phone-badge">
      {verified ? VERIFIED_BADGE : NOT_VERIFIED_BADGE}
    </span>
  );
}

/**
 * The verify step of the test panel: a 6-digit code texted to the owner's phone, typed back here. Its buttons never
 * submit the broadcast form around it (Enter in the code field verifies).
 */
export function VerifyPhone({ disabled }: { disabled?: boolean }) {
  useSignals();
  const [sent, setSent] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<"send" | "verify" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  async function sendCode() {
    if (busy) return;
    setBusy("send");
    setError(null);
    try {
      const r = await phoneApi.sendCode();
      if (alive.current) setSent(r.message);
    } catch (err) {
      if (alive.current) setError(errorText(err));
    } finally {
      if (alive.current) setBusy(null);
    }
  }

  async function verify() {
    if (busy || code.trim() === "") return;
    setBusy("verify");
    setError(null);
    try {
      const user = await phoneApi.verify(code.trim());
      if (!alive.current) return;
      currentUser.value = user;
      setSent(null);
      setCode("");
    } catch (err) {
      if (alive.current) setError(errorText(err));
    } finally {
      if (alive.current) setBusy(null);
    }
  }

  return (
    <div className="bc-test-verify">
      <p className="field-hint">Before a test goes to your phone, confirm it is yours: we text it a {CODE_DIGITS}-digit code.</p>
      {sent && (
        <p className="bc-test-outcome is-ok" role="status" data-testid="code-sent">
          {sent}
        </p>
      )}
      <div className="bc-test-row">
        <button type="button" className="btn btn-secondary" disabled={disabled || busy !== null} aria-busy={busy === "send"} onClick={() => void sendCode()}>
          {busy === "send" ? "Sending code..." : sent ? RESEND_CODE_LABEL : SEND_CODE_LABEL}
        </button>
      </div>
      {sent && (
        <div className={`field bc-test-code${error ? " has-error" : ""}`}>
          <label htmlFor="bc-test-code">{CODE_LABEL}</label>
          <div className="bc-test-row">
            <input
              id="bc-test-code"
              className="input"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={CODE_DIGITS + 2}
              placeholder="123456"
              value={code}
              disabled={disabled || busy === "verify"}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "bc-test-code-error" : undefined}
              onChange={(e) => setCode(e.currentTarget.value)}
              onKeyDown={onEnter(() => void verify())}
            />
            <button type="button" className="btn btn-primary" disabled={disabled || busy !== null || code.trim() === ""} aria-busy={busy === "verify"} onClick={() => void verify()}>
              {busy === "verify" ? "Verifying..." : VERIFY_LABEL}
            </button>
          </div>
        </div>
      )}
      {error && (
        <p id="bc-test-code-error" className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
