// Publishing a broadcast now: the broadcasts row and one deliveries row per active subscriber (the outbox), which
// the dispatcher (src/dispatch/) sends. A publish with ScheduledFor goes to schedule.ts instead. Shared by the HTTP
// API and the CLI.
import { nextTurn } from "../../lib/next-turn.ts";
import type { Recipient, SubscriberCounts } from "../../repos/broadcasts.ts";
import { type PublishBody, publishSchema } from "../../schemas/broadcast-input.ts";
import type { PublishResult } from "../../schemas/broadcasts.ts";
import * as v from "valibot";
import { checkedOffer, insertBroadcastWithOffer } from "../coupons/offer.ts";
import { type Principal, actingUserId } from "../principal.ts";
import { refuseImageWithoutPublicUrl } from "../public-links.ts";
import { validateForm } from "../validate.ts";
import { type Draft, newBroadcast } from "./draft.ts";
import { checkBroadcastImage, withImageErrors } from "./image.ts";
import { storeLinks, withLinkTracking } from "./link-tracking.ts";
import type { BroadcastParts } from "./parts.ts";
import { refuseRepeat } from "./repeat-check.ts";
import { checkedSchedule, scheduledPublish } from "./schedule.ts";
import { templateChoice } from "./template-choice.ts";

export const NO_SUBSCRIBERS = "This business has no active subscribers yet. Share your QR code to get some!";

export function queuedMessage(n: number): string {
  const s = n === 1 ? "" : "s";
  return `Broadcast queued: ${n} message${s} to ${n} subscriber${s}.`;
}

/** What a publish would do now (CLI --dry-run). */
export interface DryRun {
  businessId: number;
  businessName: string;
  messageText: string;
  counts: SubscriberCounts;
  recipients: Recipient[];
}

const dryRunSchema = v.pick(publishSchema, ["businessId", "messageText", "image"]);

/**
 * The outbox write: the broadcast row (with the repeat check, in one durable write transaction), then one delivery
 * per active subscriber, a chunk per transaction with a pause between, then one durable commit (deliveries.enqueueNextChunk), so a
 * 100,000-recipient broadcast never holds the server for long (bench/stall.ts). None is sent before the last chunk
 * is written; a failure takes it all back. Should the process die meanwhile, enqueued_through tells the dispatcher
 * where to go on. null when nobody was subscribed after all (the row goes).
 */
async function enqueue({ repos, clock }: BroadcastParts, draft: Draft, imagePath: string | null): Promise<{ id: number; n: number } | null> {
  const now = clock.now().getTime();
  // Durable (fsynced) before the owner is told it is queued: a power cut must not drop a broadcast silently.
  const id = repos.durableTransaction(() => {
    // The repeat check and the insert in one write transaction (BEGIN IMMEDIATE): of two identical publishes at
    // the same moment (two tabs, a double click, the CLI and the web), the second sees the first.
    if (!draft.input.confirm) refuseRepeat(repos, draft.business.id, draft.input.messageText, now);
    const id = insertBroadcastWithOffer(repos, newBroadcast(draft, imagePath, now));
    storeLinks(repos, id, draft.input.messageText, draft.input.trackLinks);
    return id;
  });
  try {
    for (let chunk = repos.deliveries.enqueueNextChunk(id, now); !chunk.done; chunk = repos.deliveries.enqueueNextChunk(id, now)) {
      await nextTurn();
    }
    repos.deliveries.syncEnqueued(id);
  } catch (e) {
    // All or nothing, as the owner is told: nothing of it was sent yet (the claim waits for the whole broadcast).
    repos.deliveries.abandonEnqueue(id);
    throw e;
  }
  const n = repos.broadcasts.findById(id)?.total ?? 0;
  if (n === 0 && repos.broadcasts.deleteIfEmpty(id)) return null;
  return { id, n };
}

export function publishing(parts: BroadcastParts) {
  const { repos, clock, access, images, audiences, settings } = parts;

  async function publishNow(draft: Draft): Promise<PublishResult> {
    const { business, input } = draft;
    if (input.image) checkBroadcastImage(input.image);
    // Checked early too, so a repeat stores no image; the check that counts is in the enqueue transaction.
    if (!input.confirm) refuseRepeat(repos, business.id, input.messageText, clock.now().getTime());
    if (!repos.broadcasts.hasRecipients(business.id)) return { warning: NO_SUBSCRIBERS };
    const imagePath = await images.store(business.ownerId, input.image);
    // Told before the enqueue: the same people its WhatsApp rules then skip.
    const warned = await audiences.skipWarning(business.id, draft.choice !== null);
    const written = await images.writeOrDiscard(imagePath, () => enqueue(parts, draft, imagePath));
    if (!written) return { warning: NO_SUBSCRIBERS };
    // The number the confirm step showed: those skipped at once (WhatsApp's rules, in `warning`) get nothing.
    const sending = written.n - repos.deliveries.counts(written.id).Skipped;
    return { message: queuedMessage(sending), broadcastId: written.id, recipients: sending, ...warned };
  }

  return {
    /**
     * POST PublishMessageToAllCustomers (and the CLI's broadcast send, as the operator). 400 for a missing business
     * id or blank text, 404 for an unknown business, 403 for another owner's (an admin may broadcast for any),
     * 400/413 for a bad image; {warning} when the business has no active subscriber; 409 duplicate_broadcast
     * (DuplicateBroadcastError, with duplicateOf) when the same text went to the business within 10 minutes and
     * `confirm` is not true.
     */
    async publish(actor: Principal, body: PublishBody): Promise<PublishResult> {
      const { input, linkTracking } = withLinkTracking(settings, validateForm(publishSchema, body));
      const scheduled = checkedSchedule(input.scheduledFor, clock.now().getTime());
      const business = access.sendable(actor, input.businessId);
      const couponExpiresAt = checkedOffer(input, business.timeZone, clock.now().getTime(), scheduled?.at ?? null);
      if (input.image) refuseImageWithoutPublicUrl(settings, "Image");
      const choice = await templateChoice(parts.templates, input, input.image !== null);
      const draft: Draft = { business, createdBy: actingUserId(actor), input, choice, couponExpiresAt };
      const result = await withImageErrors(scheduled ? scheduledPublish(parts, draft, scheduled) : publishNow(draft));
      return "message" in result && linkTracking ? { ...result, linkTracking } : result;
    },

    /** What a publish would do now, without writing anything (CLI --dry-run). */
    dryRun(actor: Principal, body: PublishBody): DryRun {
      const { businessId, messageText, image } = validateForm(dryRunSchema, body);
      if (image) {
        checkBroadcastImage(image);
        refuseImageWithoutPublicUrl(settings, "Image");
      }
      const business = access.sendable(actor, businessId);
      return {
        businessId,
        businessName: business.name,
        messageText,
        counts: repos.broadcasts.subscriberCounts(businessId),
        recipients: repos.broadcasts.recipients(businessId),
      };
    },
  };
}
