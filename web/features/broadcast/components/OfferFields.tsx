// The broadcast's "Offer" (issue 25): none, one code for everyone (CouponCode), or a unique code per person at
// {code} (UniqueCoupons), with an optional last day (CouponExpires). Checked here as the server checks it, in words.
import type { RefObject } from "react";
import type { PublishBody } from "../../../../src/schemas/broadcast-input.ts";
import { calendarDate, MAX_COUPON_DAYS, normalCouponCode, SHARED_COUPON_PATTERN } from "../../../../src/schemas/coupons.ts";
import { COUPON_PLACEHOLDER } from "../../../../src/schemas/tracked-text.ts";
import { SelectField } from "../../../shared/components/ChoiceFields.tsx";
import { TextField } from "../../../shared/components/TextFields.tsx";
import "../../../shared/styles/coupons.css";

/** What the preview shows at {code}: a code of the real length and alphabet (src/schemas/tracked-text.ts). */
export const EXAMPLE_COUPON = "K7M2Q9XP";

export interface Offer {
  /** "": no offer. */
  kind: "" | "shared" | "unique";
  code: string;
  /** YYYY-MM-DD (a date input's value), or "". */
  expires: string;
}

export const NO_OFFER: Offer = { kind: "", code: "", expires: "" };

export const OFFER_CODE_INVALID = "Use 3 to 20 letters, digits or dashes, e.g. SAVE10.";
export const OFFER_NEEDS_PLACEHOLDER = `Put ${COUPON_PLACEHOLDER} in your message where the code goes.`;
export const OFFER_STRAY_PLACEHOLDER = `Your message has ${COUPON_PLACEHOLDER}: choose "A unique code per person", or take it out.`;
export const OFFER_EXPIRES_PAST = "Choose today or a later day.";
export const OFFER_EXPIRES_TOO_FAR = `Choose a day at most ${MAX_COUPON_DAYS} days ahead.`;

const KINDS = [
  { value: "shared", label: "One code for everyone" },
  { value: "unique", label: "A unique code per person" },
];

const pad = (n: number) => String(n).padStart(2, "0");
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The publish's offer fields. */
export function offerFields(offer: Offer): Pick<PublishBody, "couponCode" | "uniqueCoupons" | "couponExpires"> {
  return {
    couponCode: offer.kind === "shared" ? normalCouponCode(offer.code) : null,
    uniqueCoupons: offer.kind === "unique",
    couponExpires: offer.kind && offer.expires ? offer.expires : null,
  };
}

/** What is wrong with the offer and the message together (the server checks again, in the business's time zone). */
export function offerProblems(offer: Offer, text: string, now = new Date()): { code?: string; text?: string; expires?: string } {
  const problems: { code?: string; text?: string; expires?: string } = {};
  const has = text.includes(COUPON_PLACEHOLDER);
  if (offer.kind === "shared" && !SHARED_COUPON_PATTERN.test(normalCouponCode(offer.code))) problems.code = OFFER_CODE_INVALID;
  if (offer.kind === "unique" && !has) problems.text = OFFER_NEEDS_PLACEHOLDER;
  if (offer.kind !== "unique" && has) problems.text = OFFER_STRAY_PLACEHOLDER;
  if (offer.kind && offer.expires && calendarDate(offer.expires)) {
    if (offer.expires < localDay(now)) problems.expires = OFFER_EXPIRES_PAST;
    else if (offer.expires > localDay(new Date(now.getTime() + MAX_COUPON_DAYS * 86_400_000))) problems.expires = OFFER_EXPIRES_TOO_FAR;
  }
  return problems;
}

export const hasOfferProblem = (offer: Offer, text: string): boolean => Object.keys(offerProblems(offer, text)).length > 0;

/** The message with {code} put where the cursor is (or at the end). */
function withPlaceholder(text: string, textarea: HTMLTextAreaElement | null): string {
  const at = textarea && textarea.value === text ? textarea.selectionStart : text.length;
  const before = text.slice(0, at);
  const space = before && !/\s$/.test(before) ? " " : "";
  return `${before}${space}${COUPON_PLACEHOLDER}${text.slice(at)}`;
}

export function OfferFields({
  value,
  text,
  textarea,
  submitted,
  disabled,
  onChange,
  onText,
}: {
  value: Offer;
  /** The message as typed. */
  text: string;
  /** The message's textarea: {code} goes in at its cursor. */
  textarea: RefObject<HTMLTextAreaElement | null>;
  /** Problems show once the form was sent. */
  submitted: boolean;
  disabled?: boolean;
  onChange: (offer: Offer) => void;
  onText: (text: string) => void;
}) {
  const problems = submitted ? offerProblems(value, text) : {};
  const set = (change: Partial<Offer>) => onChange({ ...value, ...change });
  return (
    <fieldset className="biz-fieldset bc-offer" disabled={disabled}>
      <legend>Offer</legend>
      <SelectField
        label="Coupon"
        name="offerKind"
        placeholder="No offer"
        choices={KINDS}
        value={value.kind}
        onChange={(kind) => set({ kind: kind as Offer["kind"] })}
        onBlur={() => {}}
        hint="Customers show the code at the counter; redeem it on the Redeem screen."
      />
      {value.kind === "shared" && (
        <TextField
          label="Code"
          name="couponCode"
          value={value.code}
          error={problems.code}
          onChange={(code) => set({ code: code.toUpperCase() })}
          onBlur={() => {}}
          autoCapitalize="characters"
          autoComplete="off"
          placeholder="SAVE10"
          maxLength={20}
        />
      )}
      {value.kind === "unique" && (
        <div className={`field bc-offer-unique${problems.text ? " has-error" : ""}`}>
          <p className="field-hint">Put {COUPON_PLACEHOLDER} in your message where the code goes. Each person gets their own code there, usable once.</p>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => onText(withPlaceholder(text, textarea.current))} disabled={text.includes(COUPON_PLACEHOLDER)}>
            Insert {COUPON_PLACEHOLDER}
          </button>
        </div>
      )}
      {problems.text && (
        <p className="field-error" role="alert">
          {problems.text}
        </p>
      )}
      {value.kind && (
        <TextField
          label="Valid until (optional)"
          name="couponExpires"
          type="date"
          value={value.expires}
          error={problems.expires}
          onChange={(expires) => set({ expires })}
          onBlur={() => {}}
          min={localDay(new Date())}
          hint="Through the end of that day. Leave empty for no end."
        />
      )}
    </fieldset>
  );
}
