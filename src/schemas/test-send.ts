// What a test message became (issue 23 item 6), as GET /api/broadcast/TestStatus answers it and the test panel and
// `nearcast broadcast test` show it.

export type TestSendState = "Sending" | "Sent" | "Delivered" | "Failed";

export interface TestStatus {
  id: number;
  channel: "SMS" | "WhatsApp";
  to: string;
  /** The WhatsApp template it was sent as (HX…), null for a free-form text. */
  contentSid: string | null;
  status: TestSendState;
  /** Twilio's own word for where it is (queued, sent, delivered, undelivered, failed...), null before its answer. */
  providerStatus: string | null;
  /** Why it failed, in plain words; null unless Failed. */
  reason: string | null;
  /** Delivered and Failed are final: no further callback changes them. */
  final: boolean;
}

/** "Queued", "Sent", "Delivered" or "Failed: <reason>": the one line the panel and the CLI print. */
export function testOutcomeText(s: Pick<TestStatus, "status" | "providerStatus" | "reason">): string {
  if (s.status === "Failed") return `Failed: ${s.reason ?? "not delivered"}`;
  if (s.status === "Sent" && ["queued", "accepted", "scheduled"].includes(s.providerStatus ?? "")) return "Queued";
  return s.status;
}
