import { useCallback, useEffect, useState } from "react";
import type { SubscriptionRequestView } from "../../../src/schemas/subscriptions.ts";
import { subscriptionRequestApi } from "./api/subscription-requests.ts";
import { ApiError } from "../../shared/api/client.ts";
import "../../shared/styles/subscription-requests.css";

export const REQUESTS_TITLE = "Asked to subscribe again";
export const REQUESTS_HINT = "You removed these people; they have since asked, on your subscribe page, to get your deals again.";
export const REQUEST_FAILED = "Could not save your answer. Please try again.";

/** The request's date and time, short, in local time. */
function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeStyle: "short" }).format(d);
}

const keyOf = (r: SubscriptionRequestView) => `${r.customerId}-${r.businessId}`;

/** The owner's two answers to a request, the yes first. */
const ANSWERS = [
  { label: "Accept", accept: true, className: "btn-primary" },
  { label: "Decline", accept: false, className: "btn-secondary" },
] as const;

/**
 * The Customers screen's panel of pending requests (a person the owner removed subscribed again on the public page).
 * Shown only when there is at least one; Accept puts the person back on the list (onChanged reloads it).
 */
export function SubscriptionRequestsPanel({ onChanged }: { onChanged: () => void }) {
  const [requests, setRequests] = useState<SubscriptionRequestView[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setRequests(await subscriptionRequestApi.list());
    } catch {
      // The list itself reports a failed load; an empty panel is the quiet answer here.
      setRequests([]);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  async function answer(r: SubscriptionRequestView, accept: boolean) {
    setBusy(keyOf(r));
    setError(null);
    try {
      await (accept ? subscriptionRequestApi.accept : subscriptionRequestApi.decline)(r.customerId, r.businessId);
      await load();
      if (accept) onChanged();
    } catch (err) {
      // The request may have been answered meanwhile (another tab): the server says so; reload to match.
      setError(err instanceof ApiError && err.message ? err.message : REQUEST_FAILED);
      void load();
    } finally {
      setBusy(null);
    }
  }

  if (requests.length === 0) return null;
  return (
    <section className="card sub-requests" aria-labelledby="sub-requests-title">
      <h2 id="sub-requests-title" className="card-title">
        {REQUESTS_TITLE}
      </h2>
      <p className="sub-requests-hint">{REQUESTS_HINT}</p>
      {error && (
        <div className="alert alert-error" role="alert">
          {error}
        </div>
      )}
      <ul className="sub-requests-list">
        {requests.map((r) => (
          <li key={keyOf(r)} className="sub-request">
            <div className="sub-request-who">
              <span className="sub-request-phone">{r.phone}</span>
              <span className="sub-request-meta">
                {r.businessName} · {r.contactPreference} · {when(r.requestedAt)}
              </span>
            </div>
            <div className="sub-request-actions">
              {ANSWERS.map(({ label, accept, className }) => (
                <button
                  key={label}
                  type="button"
                  className={`btn ${className} btn-sm`}
                  disabled={busy === keyOf(r)}
                  aria-label={`${label} ${r.phone} for ${r.businessName}`}
                  onClick={() => void answer(r, accept)}
                >
                  {label}
                </button>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
