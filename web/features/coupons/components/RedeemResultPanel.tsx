import type { RedeemResult } from "../api.ts";

// The big answer at the counter, readable at arm's length: green valid, amber used, red expired, grey unknown.

export const RESULT_VALID = "Valid — redeemed";
export const RESULT_UNKNOWN = "Unknown code";
export const RESULT_WAIT = "Too many tries, wait a minute";

const dateTime = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });
const date = (iso: string) => new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });

function lines(result: RedeemResult, code: string): { tone: string; title: string; details: string[] } {
  switch (result.kind) {
    case "valid": {
      const r = result.redeemed;
      const details = [`${r.code} · ${r.businessName}`];
      if (r.customer) details.push(`Customer ${r.customer.phoneMasked}`);
      details.push(r.kind === "shared" ? "One code for everyone" : "Their own code: now used");
      if (r.expiresAt) details.push(`Valid until ${date(r.expiresAt)}`);
      return { tone: "valid", title: RESULT_VALID, details };
    }
    case "used":
      return { tone: "used", title: `Already used on ${dateTime(result.redeemedAt)}`, details: [code, "Do not give the discount again."] };
    case "expired":
      return { tone: "expired", title: `Expired on ${date(result.expiredAt)}`, details: [code, "The offer has ended."] };
    case "unknown":
      return { tone: "unknown", title: RESULT_UNKNOWN, details: [code, "Check the code and type it again."] };
    case "wait":
      return { tone: "wait", title: RESULT_WAIT, details: ["Too many unknown codes in a row."] };
  }
}

/** `code`: as it was typed (the answer says which code it is about). */
export function RedeemResultPanel({ code, result, onNext }: { code: string; result: RedeemResult; onNext: () => void }) {
  const { tone, title, details } = lines(result, code);
  return (
    <div className={`redeem-result redeem-${tone}`} data-testid="redeem-result" data-result={result.kind}>
      <p className="redeem-result-title">{title}</p>
      {details.map((d) => (
        <p key={d} className="redeem-result-line">
          {d}
        </p>
      ))}
      <button type="button" className="btn btn-secondary redeem-next" onClick={onNext}>
        Next customer
      </button>
    </div>
  );
}
