// The broadcast screen asks before sending (issue 11, item 6): its tests answer the estimate and press the dialog's
// Send (or Schedule), so that a test about what a publish does goes through the confirm step like an owner does.
import { fireEvent, screen } from "@testing-library/react";
import type { BroadcastEstimate } from "../../src/schemas/broadcast-estimate.ts";
import { settle } from "./render-at.tsx";

export const ESTIMATE = "/api/broadcast/Estimate";

/** 48 subscribers (31 SMS, 17 WhatsApp), one segment each, priced. */
export const ESTIMATE_48: BroadcastEstimate = {
  recipients: 48, sms: 31, skipped: 0, whatsapp: 17, mms: false, encoding: "GSM-7", segmentsPerMessage: 1, messages: 48,
  totalSegments: 48, estimatedCost: 0.3984, currency: "USD", pricePerSegment: 0.0083,
};

/** The estimate's reply, for a mockApi's routes. */
export const estimateReply = { [`POST ${ESTIMATE}`]: { body: ESTIMATE_48 } };

/** Presses Send (or Schedule) in the open confirm dialog and lets the publish go. */
export async function confirmSend(rounds = 10): Promise<void> {
  await settle(rounds);
  fireEvent.click(screen.getByRole("button", { name: /^(Send|Schedule)$/ }));
  await settle(rounds);
}
