// Scheduled broadcasts (issue 11 item 5): a publish with ScheduledFor stores the broadcasts row only, which the
// dispatcher starts at its time; until then it can be edited (UpdateScheduledBroadcast) or cancelled.
import * as v from "valibot";
import { ConflictError, ValidationError } from "../../errors.ts";
import type { BroadcastRow } from "../../repos/broadcasts.ts";
import { type PublishBody, publishSchema, type ScheduleUpdateBody, scheduleProblem, scheduleUpdateSchema } from "../../schemas/broadcast-input.ts";
import type { BroadcastSummary, PublishResult } from "../../schemas/broadcasts.ts";
import { checkOfferKept, insertBroadcastWithOffer } from "../coupons/offer.ts";
import type { Principal } from "../principal.ts";
import { validateForm } from "../validate.ts";
import { type Draft, newBroadcast } from "./draft.ts";
import { checkBroadcastImage } from "./image.ts";
import { storeLinks, trackingOfNewText } from "./link-tracking.ts";
import type { BroadcastParts } from "./parts.ts";
import { refuseRepeat } from "./repeat-check.ts";
import { templateChoice, templateColumns } from "./template-choice.ts";

export const NOTHING_TO_UPDATE = "Give a new MessageText, ScheduledFor or ContentSid.";
export const ALREADY_STARTED = "This broadcast has already started sending; it can no longer be changed or cancelled.";
export const ALREADY_CANCELLED = "This broadcast was cancelled; schedule a new one instead.";

type Schedule = { at: number; text: string };

/** "Scheduled for ...": the time as the owner wrote it (with their offset), so it reads back as given. */
export function scheduledMessage(scheduledFor: string): string {
  return `Broadcast scheduled for ${scheduledFor}. Its recipients are the active subscribers at that time.`;
}

/** The schedule when it can still be kept at `now`; a 400 naming ScheduledFor when it is past or too far ahead. */
export function checkedSchedule(scheduled: Schedule | undefined, now: number): Schedule | undefined {
  const problem = scheduled ? scheduleProblem(scheduled.at, now) : null;
  if (problem) throw new ValidationError(problem, { ScheduledFor: problem });
  return scheduled;
}

/** ScheduledFor alone, checked as a publish checks it (the CLI asks before it publishes). */
export function parseScheduledFor(scheduledFor: PublishBody["scheduledFor"], now: number): Schedule | undefined {
  return checkedSchedule(validateForm(v.pick(publishSchema, ["scheduledFor"]), { scheduledFor }).scheduledFor, now);
}

/**
 * A scheduled publish: the broadcasts row only (scheduled_for set, started_at NULL, no deliveries, total 0); the
 * dispatcher decides the recipients when it starts it. Accepted even with nobody subscribed yet (people may
 * subscribe meanwhile; started with nobody, it completes with total 0). The repeat check counts it like any publish.
 */
export async function scheduledPublish(parts: BroadcastParts, draft: Draft, scheduled: Schedule): Promise<PublishResult> {
  const { repos, clock, images, audiences } = parts;
  const { business, input } = draft;
  if (input.image) checkBroadcastImage(input.image);
  if (!input.confirm) refuseRepeat(repos, business.id, input.messageText, clock.now().getTime());
  const imagePath = await images.store(business.ownerId, input.image);
  const id = await images.writeOrDiscard(imagePath, () =>
    repos.durableTransaction(() => {
      const now = clock.now().getTime();
      if (!input.confirm) refuseRepeat(repos, business.id, input.messageText, now);
      const id = insertBroadcastWithOffer(repos, { ...newBroadcast(draft, imagePath, now), scheduledFor: scheduled.at });
      storeLinks(repos, id, input.messageText, input.trackLinks);
      return id;
    }),
  );
  const recipients = repos.broadcasts.subscriberCounts(business.id).total;
  return {
    message: scheduledMessage(scheduled.text),
    broadcastId: id,
    recipients,
    scheduledFor: new Date(scheduled.at).toISOString(),
    ...(await audiences.skipWarning(business.id, draft.choice !== null)),
  };
}

export function scheduling(parts: BroadcastParts) {
  const { repos, clock, access, show } = parts;

  /** The broadcast to edit or cancel: 404 for another owner's, 409 once it started (or was cancelled). */
  function waitingBroadcast(actor: Principal, id: number): BroadcastRow {
    const row = access.broadcastOf(actor, id);
    if (row.cancelledAt !== null) throw new ConflictError(ALREADY_CANCELLED);
    if (row.startedAt !== null || row.scheduledFor === null) throw new ConflictError(ALREADY_STARTED);
    return row;
  }

  /** After a guarded write changed nothing: the dispatcher started it (or someone cancelled it) meanwhile. */
  function conflictNow(id: number): never {
    const row = repos.broadcasts.findById(id);
    throw new ConflictError(row?.cancelledAt ? ALREADY_CANCELLED : ALREADY_STARTED);
  }

  return {
    /**
     * POST UpdateScheduledBroadcast: a new text, time and/or template for a scheduled broadcast that has not
     * started. 400 for bad fields (nothing changed), 404 for another owner's, 409 once it started or was cancelled.
     */
    async updateScheduled(actor: Principal, body: ScheduleUpdateBody): Promise<BroadcastSummary> {
      const input = validateForm(scheduleUpdateSchema, body);
      const { broadcastId: id, messageText } = input;
      const scheduled = checkedSchedule(input.scheduledFor, clock.now().getTime());
      const templateGiven = input.contentSid !== undefined || input.contentVariables !== undefined;
      if (messageText === undefined && scheduled === undefined && !templateGiven) {
        throw new ValidationError(NOTHING_TO_UPDATE, { MessageText: NOTHING_TO_UPDATE, ScheduledFor: NOTHING_TO_UPDATE });
      }
      const row = waitingBroadcast(actor, id);
      checkOfferKept(row, messageText, scheduled?.at);
      const template = templateGiven
        ? templateColumns(await templateChoice(parts.templates, input, row.imagePath !== null), row.imagePath)
        : undefined;
      const trackLinks = messageText === undefined ? undefined : trackingOfNewText(parts.settings, row, messageText);
      // Guarded by started_at/cancelled_at IS NULL: if the dispatcher started it since the read above, nothing changes.
      const updated = repos.transaction(() => {
        if (!repos.broadcasts.updateScheduled(id, { messageText, scheduledFor: scheduled?.at, trackLinks, ...template })) return false;
        if (messageText !== undefined) storeLinks(repos, id, messageText, trackLinks!);
        return true;
      });
      if (!updated) conflictNow(id);
      return show.summary(repos.broadcasts.findById(id)!);
    },
  };
}
