// The broadcast screen's world, shared by its component tests: business 7 "Sunrise Bakery" in its owner's view, its
// subscribers by channel, an empty history and the owner's session; the screen rendered at its route with the handles
// the tests press; a broadcast summary to show in the history; and the confirm step every send goes through.
import { afterEach, beforeEach } from "bun:test";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import type { BroadcastEstimate } from "../../../src/schemas/broadcast-estimate.ts";
import type { WhatsAppTemplate } from "../../../src/schemas/whatsapp-templates.ts";
import type { BroadcastSummary } from "../../../web/features/broadcast/api/broadcasts.ts";
import { BroadcastPage } from "../../../web/features/broadcast/BroadcastPage.tsx";
import { toasts } from "../../../web/shared/state/toasts.ts";
import { renderAt, settle } from "../render-at.tsx";
import { type MockApi, onePage, type Reply } from "../../helpers/mock-api.ts";

export const BUSINESS = "/api/business/GetBusinessById";
export const COUNT = "/api/business/GetSubscriberCount";
/** The history reads ListBroadcasts a page at a time. */
export const HISTORY = "/api/business/ListBroadcasts";
export const PUBLISH = "/api/business/PublishMessageToAllCustomers";
export const ESTIMATE = "/api/broadcast/Estimate";

/** Subscribers of the business by channel (GetSubscriberCount). */
export interface Counts {
  total: number;
  sms: number;
  whatsapp: number;
}
export const COUNTS_48: Counts = { total: 48, sms: 31, whatsapp: 17 };

/** The screen's three reads when it opens: the business (the full view, which only its owner or an admin gets: it
 * carries ownerId), its subscribers, an empty history. */
export function openingReplies(counts: Counts = COUNTS_48): Record<string, Reply> {
  return {
    [`GET ${BUSINESS}`]: { body: { id: 7, name: "Sunrise Bakery", isActive: true, ownerId: 3 } },
    [`GET ${COUNT}`]: { body: counts },
    [`GET ${HISTORY}`]: { body: onePage([]) },
  };
}

/**
 * Call at the top of a test file, after mockApi(). Before each test: no toasts, console.error silenced (or sent to
 * `onConsoleError`), the opening replies, the estimate's and `replies()`, the owner's XSRF cookie and token. After each: unmounted,
 * console.error, storage and toasts put back.
 */
export function useBroadcastScreen(
  api: MockApi,
  { counts = COUNTS_48, replies = () => ({}), onConsoleError = () => {} }: { counts?: Counts; replies?: () => Record<string, Reply>; onConsoleError?: (...args: unknown[]) => void } = {},
): void {
  const realConsoleError = console.error;
  beforeEach(() => {
    toasts.value = [];
    Object.assign(api.routes, openingReplies(counts), estimateReply, replies());
    console.error = onConsoleError;
    document.cookie = "XSRF-TOKEN=xsrf-123";
    localStorage.setItem("token", "owner-token");
  });
  afterEach(() => {
    cleanup();
    console.error = realConsoleError;
    localStorage.clear();
    toasts.value = [];
  });
}

/** The screen of business `id`, after its opening reads, with the handles the tests press. */
export async function renderBroadcastScreen(id = "7") {
  const view = renderAt(`/businesses/broadcast/${id}`, {
    "/businesses/broadcast/:id": BroadcastPage,
    "/my-business": <p>My Business list</p>,
  });
  await settle();
  const textarea = () => view.getByLabelText(/Message Text/) as HTMLTextAreaElement;
  const sendButton = () => view.container.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const type = (value: string) => fireEvent.change(textarea(), { target: { value } });
  const submit = () => fireEvent.click(sendButton());
  return { ...view, textarea, sendButton, type, submit };
}

/** A broadcast as the history shows it: completed, 48 delivered, unless `over` says otherwise. */
export const broadcastSummary = (over: Partial<BroadcastSummary> = {}): BroadcastSummary => ({
  id: 5,
  messageText: "Fresh croissants 20% off until noon!",
  couponCode: null,
  uniqueCoupons: false,
  couponExpiresAt: null,
  imagePath: null,
  trackLinks: false,
  createdAt: "2026-11-22T15:04:00.000Z",
  total: 48,
  queued: 0,
  sent: 0,
  delivered: 48,
  failed: 0,
  skipped: 0,
  cancelled: 0,
  retryable: 0,
  expired: 0,
  completedAt: "2026-11-22T15:06:00.000Z",
  scheduledFor: null,
  startedAt: "2026-11-22T15:04:00.000Z",
  cancelledAt: null,
  state: "completed",
  ...over,
});

// The screen asks before sending (issue 11, item 6): tests answer the estimate and press the dialog's Send (or
// Schedule), so that a test about what a publish does goes through the confirm step like an owner does.

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

/** The WhatsApp replies of the broadcast screen (its templates and its audience), for a mockApi's routes: `whatsapp`
 * subscribers, `inWindow` of them wrote in the last 24 hours, the rest need a template. */
export function whatsappReplies(templates: WhatsAppTemplate[], whatsapp: number, inWindow = whatsapp) {
  const audience = { whatsapp, inWindow, needTemplate: whatsapp - inWindow, usNumbers: 0, marketingStopped: 0, warningWithoutTemplate: null, warningWithTemplate: null };
  return { ["GET /api/business/WhatsAppTemplates"]: { body: templates }, ["GET /api/business/WhatsAppAudience"]: { body: audience } };
}

/** An approved WhatsApp template as GET WhatsAppTemplates lists it: weekly_offer, {{1}} and {{2}}, unless `over` says otherwise. */
export const whatsappTemplate = (over: Partial<WhatsAppTemplate>): WhatsAppTemplate => ({
  sid: "HX11111111111111111111111111111111",
  name: "weekly_offer",
  language: "en",
  category: "MARKETING",
  body: "{{1}} has a new offer: {{2}}",
  variables: [
    { key: "1", example: "Rosa's Bakery" },
    { key: "2", example: "Fresh bread" },
  ],
  mediaHeader: false,
  mediaVariable: null,
  mediaUrl: null,
  status: "approved",
  rejectionReason: null,
  ...over,
});
