import type { SubscriberCount } from "../api/broadcasts.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * 'Will send to 48 subscribers (31 SMS, 17 WhatsApp) · 93 SMS segments'. WhatsApp messages are not segmented;
 * with an image, SMS go out as MMS (one message each, not segmented).
 */
export function recipientsText(counts: SubscriberCount, segments: number, hasImage: boolean): string {
  if (counts.total === 0) return "This business has no subscribers yet: nobody will receive this broadcast.";
  const base = `Will send to ${plural(counts.total, "subscriber")} (${counts.sms} SMS, ${counts.whatsapp} WhatsApp)`;
  if (counts.sms === 0) return base;
  if (hasImage) return `${base} · ${counts.sms} MMS: the image turns each SMS into an MMS`;
  if (segments === 0) return base;
  return `${base} · ${plural(counts.sms * segments, "SMS segment")}`;
}

export function RecipientsLine({ counts, segments, hasImage }: { counts: SubscriberCount | null; segments: number; hasImage: boolean }) {
  if (!counts) return null;
  return (
    <p className={`bc-recipients${counts.total === 0 ? " is-empty" : ""}`} data-testid="recipients">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M16 20v-1.5a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4V20" />
        <circle cx="9" cy="7.5" r="3.5" />
        <path d="M22 20v-1.5a4 4 0 0 0-3-3.87M16 4.13a4 4 0 0 1 0 7.75" />
      </svg>
      <span>{recipientsText(counts, segments, hasImage)}</span>
    </p>
  );
}
