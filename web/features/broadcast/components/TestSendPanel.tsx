import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef, useState } from "react";
import { beforeSendApi, type TestChannel, type TestTemplate } from "../api/before-send.ts";
import { ApiError, CONNECTION_ERROR } from "../../../shared/api/client.ts";
import { currentUser } from "../../../shared/state/session.ts";
import "../../../shared/styles/before-send.css";
import { onEnter } from "./enter-key.ts";
import { TestOutcomeLine, useTestOutcome } from "./TestOutcome.tsx";
import { PhoneBadge, VerifyPhone } from "./VerifyPhone.tsx";

export const TEST_SEND_LABEL = "Send a test to my phone";
export const TEST_SENDING_LABEL = "Sending test...";
export const WRITE_FIRST = "Write the message first.";
export const ADD_PHONE_FIRST = "Add your mobile number to send yourself a test.";
export const VERIFY_PHONE_FIRST = "Verify your mobile number to send yourself a test.";
export const WAIT_FOR_APPROVAL = "Tests are sent once the administrator approves your account.";

/** What a failed request says, in the owner's words. */
function errorText(err: unknown, field?: string): string {
  if (!(err instanceof ApiError)) return "Something went wrong. Please try again.";
  if (err.status === 0) return CONNECTION_ERROR;
  return (field && err.fields[field]) || err.message || "Something went wrong. Please try again.";
}

/**
 * "Send a test to my phone": the message as written (with its image) to the owner's own mobile, by SMS or WhatsApp,
 * at once. Not a broadcast: nobody else gets it and it is in no history. The owner's number is entered or changed
 * here too (it is stored on the account). Its buttons never submit the broadcast form, Enter included.
 */
export function TestSendPanel({ businessId, text, image, template = null, disabled }: { businessId: string; text: string; image: File | null; template?: TestTemplate | null; disabled?: boolean }) {
  useSignals();
  const phone = currentUser.value?.phone ?? null;
  const verified = currentUser.value?.phoneVerified === true;
  const pending = currentUser.value?.status === "pending";
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState("");
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [savingPhone, setSavingPhone] = useState(false);
  const [channel, setChannel] = useState<TestChannel>("SMS");
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const [testId, setTestId] = useState<number | null>(null);
  const delivery = useTestOutcome(testId);
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);

  const askPhone = editing || !phone;

  async function savePhone() {
    if (savingPhone) return;
    setSavingPhone(true);
    setPhoneError(null);
    try {
      const user = await beforeSendApi.updateMyPhone(draft.trim());
      if (!alive.current) return;
      currentUser.value = user;
      setEditing(false);
    } catch (err) {
      if (alive.current) setPhoneError(errorText(err, "phone"));
    } finally {
      if (alive.current) setSavingPhone(false);
    }
  }

  async function sendTest() {
    if (sending || !text || !phone || !verified || pending) return;
    setSending(true);
    setOutcome(null);
    setTestId(null);
    try {
      const r = await beforeSendApi.sendTest(businessId, text, channel, image, template);
      if (!alive.current) return;
      setOutcome({ ok: r.result === "sent", text: r.message });
      if (r.result === "sent" && typeof r.testId === "number") setTestId(r.testId);
    } catch (err) {
      if (alive.current) setOutcome({ ok: false, text: errorText(err) });
    } finally {
      if (alive.current) setSending(false);
    }
  }

  const hint = pending ? WAIT_FOR_APPROVAL : !text ? WRITE_FIRST : !phone ? ADD_PHONE_FIRST : !verified ? VERIFY_PHONE_FIRST : null;
  return (
    <section className="bc-test" aria-labelledby="bc-test-title">
      <h2 id="bc-test-title" className="bc-test-title">
        Test it first
      </h2>
      {askPhone ? (
        <div className={`field bc-test-phone${phoneError ? " has-error" : ""}`}>
          <label htmlFor="bc-test-phone">Your mobile number</label>
          <div className="bc-test-row">
            <input
              id="bc-test-phone"
              type="tel"
              className="input"
              autoComplete="tel"
              placeholder="+1 415 555 0134"
              value={draft}
              disabled={disabled || savingPhone}
              aria-invalid={phoneError ? true : undefined}
              aria-describedby={phoneError ? "bc-test-phone-error" : undefined}
              onChange={(e) => setDraft(e.currentTarget.value)}
              onKeyDown={onEnter(() => void savePhone())}
            />
            <button type="button" className="btn btn-secondary" disabled={disabled || savingPhone || !draft.trim()} onClick={() => void savePhone()}>
              {savingPhone ? "Saving..." : "Save number"}
            </button>
            {editing && phone && (
              <button type="button" className="btn btn-link" onClick={() => { setEditing(false); setPhoneError(null); }}>
                Keep {phone}
              </button>
            )}
          </div>
          {phoneError && (
            <p id="bc-test-phone-error" className="field-error" role="alert">
              {phoneError}
            </p>
          )}
        </div>
      ) : (
        <p className="bc-test-to">
          Goes to <strong data-testid="my-phone">{phone}</strong> <PhoneBadge verified={verified} />{" "}
          <button type="button" className="btn btn-link" disabled={disabled} onClick={() => { setDraft(phone ?? ""); setEditing(true); }}>
            Change
          </button>
        </p>
      )}
      {!askPhone && !verified && !pending && <VerifyPhone disabled={disabled} />}
      <div className="bc-test-row">
        <label className="bc-test-channel">
          <span>By</span>
          <select className="input" value={channel} disabled={disabled || sending} onChange={(e) => setChannel(e.currentTarget.value as TestChannel)}>
            <option value="SMS">SMS</option>
            <option value="WhatsApp">WhatsApp</option>
          </select>
        </label>
        <button type="button" className="btn btn-secondary bc-test-send" disabled={disabled || sending || !!hint} aria-busy={sending} onClick={() => void sendTest()}>
          {sending && <span className="spinner" aria-hidden="true" />}
          {sending ? TEST_SENDING_LABEL : TEST_SEND_LABEL}
        </button>
      </div>
      {template && channel === "WhatsApp" && (
        <p className="field-hint" data-testid="test-template">
          The WhatsApp test sends the chosen template, as your subscribers will get it.
        </p>
      )}
      {hint && (
        <p className="field-hint" data-testid="test-hint">
          {hint}
        </p>
      )}
      {outcome && (
        <p className={`bc-test-outcome ${outcome.ok ? "is-ok" : "is-failed"}`} role="status" data-testid="test-outcome">
          {outcome.text}
        </p>
      )}
      {outcome?.ok && <TestOutcomeLine status={delivery} />}
    </section>
  );
}
