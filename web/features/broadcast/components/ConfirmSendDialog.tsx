import { type ReactNode, useState } from "react";
import { type BroadcastEstimate, costLines, costLineText, estimateQuestion } from "../../../../src/schemas/broadcast-estimate.ts";
import { ApiError } from "../../../shared/api/client.ts";
import { broadcastErrorToast } from "../api/broadcast-errors.ts";
import { beforeSendApi } from "../api/before-send.ts";
import { notify } from "../../../shared/state/toasts.ts";
import "../../../shared/styles/before-send.css";
import { type Answers, AskBeforeSending } from "./AskBeforeSending.tsx";

/** The dialog's sentence: "Send to 48 customers: 48 messages (93 segments), about $0.77." (+ " at <time>"). */
export function confirmText(estimate: BroadcastEstimate, when: string | null): string {
  return `${estimateQuestion(estimate, when)}.`;
}

/**
 * The last question before a broadcast goes out: who, how many messages and segments, what it will roughly cost.
 * Send (or Schedule) goes on; Cancel, Escape or a click outside keeps the message on the screen, unsent.
 */
export function ConfirmSendDialog({
  estimate,
  when,
  onConfirm,
  onCancel,
}: {
  estimate: BroadcastEstimate;
  /** The scheduled time as the owner reads it; null = now. */
  when: string | null;
} & Answers) {
  return (
    <AskBeforeSending
      className="bc-confirm"
      backdropTestId="confirm-backdrop"
      title={when ? "Schedule this broadcast?" : "Send this broadcast?"}
      question={confirmText(estimate, when)}
      questionTestId="confirm-text"
      confirmLabel={when ? "Schedule" : "Send"}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      <ul className="bc-confirm-details">
        {estimate.sms > 0 && (
          <li>
            {estimate.mms
              ? `${estimate.sms} by MMS (the image makes each SMS one MMS)`
              : `${estimate.sms} by SMS, ${estimate.segmentsPerMessage} segment${estimate.segmentsPerMessage === 1 ? "" : "s"} each (${estimate.encoding})`}
          </li>
        )}
        {estimate.whatsapp > 0 && <li>{estimate.whatsapp} by WhatsApp</li>}
        {estimate.estimatedCost !== null && (
          <li data-testid="confirm-cost">
            How the cost is made:
            <ul className="bc-confirm-cost">
              {costLines(estimate).map((line) => (
                <li key={line.channel}>
                  {line.channel}: {costLineText(line)}
                </li>
              ))}
            </ul>
            Prices from Settings; your Twilio bill may differ.
          </li>
        )}
        {when && <li>Recipients are whoever is subscribed at that time.</li>}
      </ul>
    </AskBeforeSending>
  );
}

/**
 * The confirm step for the broadcast screen: ask() fetches the estimate and opens the dialog; Send runs `go`.
 * `checking` is true while the estimate loads; `dialog` is rendered where the page wants it.
 */
export function useConfirmSend(
  businessId: string,
  /** The server answered 401: the page offers to sign in again instead of a toast. */
  onSessionEnded?: () => void,
): {
  ask: (text: string, hasImage: boolean, when: string | null, go: () => void, withTemplate?: boolean, trackLinks?: boolean, uniqueCoupons?: boolean) => Promise<void>;
  checking: boolean;
  dialog: ReactNode;
} {
  const [checking, setChecking] = useState(false);
  const [open, setOpen] = useState<{ estimate: BroadcastEstimate; when: string | null; go: () => void } | null>(null);

  async function ask(text: string, hasImage: boolean, when: string | null, go: () => void, withTemplate = false, trackLinks = true, uniqueCoupons = false) {
    setChecking(true);
    try {
      const estimate = await beforeSendApi.estimate(businessId, text, hasImage, withTemplate, trackLinks, uniqueCoupons);
      // Nobody to send to now: the publish itself says so (a scheduled one is still asked about).
      if (estimate.recipients === 0 && !when) go();
      else setOpen({ estimate, when, go });
    } catch (err) {
      if (onSessionEnded && err instanceof ApiError && err.status === 401) {
        onSessionEnded();
        return;
      }
      const t = broadcastErrorToast(err);
      notify.error(t.title, t.message);
    } finally {
      setChecking(false);
    }
  }

  const dialog = open ? (
    <ConfirmSendDialog
      estimate={open.estimate}
      when={open.when}
      onCancel={() => setOpen(null)}
      onConfirm={() => {
        setOpen(null);
        open.go();
      }}
    />
  ) : null;
  return { ask, checking, dialog };
}
