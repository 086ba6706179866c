import { broadcastApi } from "../api/broadcasts.ts";
import { type Answers, AskBeforeSending } from "./AskBeforeSending.tsx";

/** The broadcast a publish would repeat (409 duplicate_broadcast): what the dialog says about it, when known. */
export interface EarlierBroadcast {
  id: number;
  /** Recipients of the earlier broadcast; null when its status could not be read. */
  total: number | null;
  /** ISO time it was sent; null when unknown. */
  createdAt: string | null;
}

/** What the earlier broadcast was, as far as it can be read (the dialog asks all the same). */
export async function earlierBroadcast(id: number): Promise<EarlierBroadcast> {
  try {
    const s = await broadcastApi.status(id);
    if (s && typeof s.total === "number") return { id, total: s.total, createdAt: s.createdAt };
  } catch (err) {
    console.error("Error loading the earlier broadcast:", err);
  }
  return { id, total: null, createdAt: null };
}

/** "3:04 PM" in the browser's time zone; "" when unreadable. */
export function timeOfDay(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" });
}

/** The dialog's question: "You sent this same message to N customers at HH:MM. Send it again?" */
export function repeatQuestion(earlier: EarlierBroadcast): string {
  const to = earlier.total === null ? "" : ` to ${earlier.total} customer${earlier.total === 1 ? "" : "s"}`;
  const at = timeOfDay(earlier.createdAt);
  const when = at ? ` at ${at}` : " a few minutes ago";
  return `You sent this same message${to}${when}. Send it again?`;
}

/**
 * Asks before the same text goes to the same customers twice within 10 minutes. Send again resends with
 * Confirm=true; Cancel (or Escape, or a click outside) keeps the message on the screen, unsent.
 */
export function RepeatBroadcastDialog({
  earlier,
  busy,
  onConfirm,
  onCancel,
}: {
  earlier: EarlierBroadcast;
  busy: boolean;
} & Answers) {
  return (
    <AskBeforeSending
      className="bc-repeat"
      backdropTestId="repeat-backdrop"
      title="Send the same message again?"
      question={repeatQuestion(earlier)}
      confirmLabel={busy ? "Sending..." : "Send again"}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
