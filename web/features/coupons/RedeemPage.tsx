import { type FormEvent, useRef, useState } from "react";
import { redeemSchema } from "../../../src/schemas/coupons.ts";
import { ApiError } from "../../shared/api/client.ts";
import { useForm } from "../../shared/components/form.tsx";
import { SubmitButton } from "../../shared/components/FormActions.tsx";
import { PhoneField } from "../../shared/components/PhoneField.tsx";
import { TextField } from "../../shared/components/TextFields.tsx";
import { notify } from "../../shared/state/toasts.ts";
import "../../shared/styles/coupons.css";
import { type RedeemResult, couponsApi } from "./api.ts";
import { RedeemResultPanel } from "./components/RedeemResultPanel.tsx";

export const REDEEM_SUBTITLE = "Type the code the customer shows you.";
export const REDEEM_FAILED = "Could not redeem the code";

const EMPTY = { code: "", phone: "" };

/**
 * /redeem: at the counter, on a phone. One big code field (and the customer's phone for a shared code), then a big
 * answer; the fields clear and the code field takes the focus again for the next customer.
 */
export function RedeemPage() {
  const form = useForm(redeemSchema, EMPTY);
  const [result, setResult] = useState<{ code: string; outcome: RedeemResult } | null>(null);
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);

  function next() {
    setResult(null);
    form.reset(EMPTY);
    codeInput.current?.focus();
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    if (!form.submit()) {
      codeInput.current?.focus();
      return;
    }
    const { code, phone } = form.values;
    setBusy(true);
    try {
      const outcome = await couponsApi.redeem(code, phone);
      setResult({ code: code.replace(/\s+/g, "").toUpperCase(), outcome });
      form.reset(EMPTY);
      codeInput.current?.focus();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) form.setServerErrors(err.fields);
      else notify.error(REDEEM_FAILED, err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  }

  const code = form.bind("code");
  return (
    <section className="container page redeem-page">
      <h1>Redeem</h1>
      <p className="muted">{REDEEM_SUBTITLE}</p>
      <form className="card redeem-form" onSubmit={onSubmit} noValidate aria-label="Redeem a coupon">
        <div className="redeem-code">
          <TextField
            {...code}
            // Typing the next code puts the last answer away.
            onChange={(value) => {
              if (result) setResult(null);
              code.onChange(value);
            }}
            ref={codeInput}
            label="Code"
            autoFocus
            autoCapitalize="characters"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            inputMode="text"
            enterKeyHint="go"
            placeholder="AB3K9QPM"
          />
        </div>
        <PhoneField {...form.bind("phone")} label="Customer's phone (optional)" hint="For a code everyone got: counts it once per customer." autoComplete="off" />
        <SubmitButton className="redeem-submit" busy={busy} label="Redeem" busyLabel="Checking..." />
      </form>
      <div role="status" aria-live="polite" className="redeem-answer">
        {result && <RedeemResultPanel code={result.code} result={result.outcome} onNext={next} />}
      </div>
    </section>
  );
}
