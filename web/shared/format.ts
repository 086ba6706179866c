// How the UI shows a stored date and a stored image path (the broadcast history, the customer messages).

/** Spec: an image URL starting with http is used as is; anything else is relative to the site origin. */
export function absoluteImageUrl(url: string, origin: string = window.location.origin): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${origin}/${url.replace(/^\/+/, "")}`;
}

/** "Nov 22, 2026, 3:04 PM" (US English, local time); "" for a missing or unreadable date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
}

/** A list's short time: "3:04 PM" today, "Nov 22" this year, "Nov 22, 2025" before; "" for a missing date. */
export function formatShortWhen(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  if (d.toDateString() === now.toDateString()) return d.toLocaleString("en-US", { hour: "numeric", minute: "2-digit" });
  const year = d.getFullYear() === now.getFullYear() ? undefined : "numeric";
  return d.toLocaleString("en-US", { month: "short", day: "numeric", year });
}

/** A sent message's status as a badge (spec: Sent green, Delivered yellow, Failed red; Queued, not sent yet, grey). */
export const MESSAGE_STATUS_BADGE: Record<"Sent" | "Delivered" | "Failed" | "Queued", string> = {
  Sent: "badge-success",
  Delivered: "badge-warning",
  Failed: "badge-danger",
  Queued: "badge-muted",
};
