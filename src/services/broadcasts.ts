// Broadcasts: publish a message (optional image) to every active subscriber of a business, and report progress.
// Publishing writes the broadcasts row and one deliveries row per active subscriber in ONE synchronous transaction
// (the outbox); the dispatcher (src/dispatch/) sends them. Shared by the HTTP API and the CLI.
import { unlinkSync } from "node:fs";
import type { Clock } from "../clock.ts";
import { AppError, ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, ValidationError, throwIfInvalid } from "../errors.ts";
import { SNIFF_BYTES, sniffImage } from "../schemas/image-sniff.ts";
import { MAX_BODY_LENGTH } from "../messaging/messenger.ts";
import type { BroadcastRow, Recipient, SubscriberCounts } from "../repos/broadcasts.ts";
import type { WaitingCounts } from "../repos/sql/broadcast-progress.ts";
import type { StatusCounts } from "../repos/sql/delivery-rows.ts";
import type { Repos } from "../repos/index.ts";
import { type BroadcastState, type BroadcastSummary, MAX_SCHEDULE_DAYS } from "../schemas/broadcasts.ts";
import { BROADCAST_IMAGE_TOO_LARGE, BROADCAST_INVALID_IMAGE, BUSINESS_NOT_FOUND, MESSAGE_REQUIRED, NOT_YOUR_BUSINESS } from "../schemas/texts.ts";
import { parseIdText } from "../schemas/ids.ts";
import { checkPageParams, type Page, pageOf } from "../schemas/paging.ts";
import { type Principal, actingUserId, canManage } from "./principal.ts";
import { requireApprovedOwner } from "./owner-approval.ts";
import { refuseImageWithoutPublicUrl } from "./public-links.ts";
import type { SettingsService } from "./settings.ts";
import type { UploadsService } from "./uploads.ts";
import { MAX_IMAGE_BYTES } from "../schemas/images.ts";
import { variablesProblem, type WhatsAppAudience, type WhatsAppTemplate, whatsappSkipWarning } from "../schemas/whatsapp-templates.ts";
import { isUsNumber } from "../repos/sql/whatsapp-skips.ts";
import { WHATSAPP_WINDOW_MS } from "../repos/customer-inbound.ts";
import type { WhatsAppTemplatesService } from "./whatsapp-templates.ts";
import { nextTurn } from "../lib/next-turn.ts";

// Spec section 5 and 8.
export const BUSINESS_ID_REQUIRED = "Business ID is required.";
export const BUSINESS_ID_INVALID = "Business ID must be a positive whole number.";
export const MESSAGE_TOO_LONG = `Message text cannot exceed ${MAX_BODY_LENGTH} characters.`;
export const NO_SUBSCRIBERS = "This business has no active subscribers yet. Share your QR code to get some!";
export const BROADCAST_NOT_FOUND = "Broadcast not found.";

/** WhatsApp recipients read per turn of the server when counting who a broadcast would skip: a page costs some
 * 5 ms, most of it telling US numbers from the rest of +1 (libphonenumber). */
const AUDIENCE_PAGE = 500;

/** A publish of the same text to the same business within this window asks for confirmation (issue 10, item 8). */
export const REPEAT_WINDOW_MS = 10 * 60_000;
export const DUPLICATE_BROADCAST =
  "This business sent this same message less than 10 minutes ago. To send it again, confirm (Confirm=true).";
export const CONFIRM_INVALID = "Confirm must be true or false.";

// Scheduling (issue 11 item 5).
export const SCHEDULED_FOR_INVALID =
  "ScheduledFor must be a date and time with its UTC offset, e.g. 2026-11-24T09:00:00-05:00.";
export const SCHEDULED_FOR_PAST = "ScheduledFor must be in the future.";
export const SCHEDULED_FOR_TOO_FAR = `ScheduledFor must be at most ${MAX_SCHEDULE_DAYS} days ahead.`;
export const BROADCAST_ID_REQUIRED = "Broadcast ID is required.";
export const BROADCAST_ID_INVALID = "Broadcast ID must be a positive whole number.";
export const NOTHING_TO_UPDATE = "Give a new MessageText, ScheduledFor or ContentSid.";
export const ALREADY_STARTED = "This broadcast has already started sending; it can no longer be changed or cancelled.";
export const ALREADY_CANCELLED = "This broadcast was cancelled; schedule a new one instead.";

/** ISO 8601 date and time WITH an offset (Z or ±HH:MM): a time without one would depend on the server's zone. */
const ISO_WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** 409: the publish repeats a recent broadcast (`duplicateOf`); sent only with Confirm=true. */
export class DuplicateBroadcastError extends AppError {
  constructor(readonly duplicateOf: number) {
    super(409, "duplicate_broadcast", DUPLICATE_BROADCAST);
  }
}

export type PublishResult =
  /** `warning`: who on WhatsApp is skipped and why (whatsappSkipWarning). */
  | { message: string; broadcastId: number; recipients: number; scheduledFor?: string; warning?: string }
  | { warning: string };

export interface PublishInput {
  /** As received (multipart text field, CLI argument). */
  businessId: unknown;
  messageText: unknown;
  /** The image's bytes; null/empty = no image. */
  image?: Uint8Array | null;
  /** Send even when the same text went to the same business within REPEAT_WINDOW_MS: true/"true"; absent = no. */
  confirm?: unknown;
  /** ISO 8601 with offset: start then instead of now; absent/empty = now. */
  scheduledFor?: unknown;
  /** A WhatsApp template (HX…) for the WhatsApp recipients, and its variables (JSON object text). */
  contentSid?: unknown;
  contentVariables?: unknown;
}

// WhatsApp templates (issue 11 item 1).
export const CONTENT_SID_UNKNOWN = "ContentSid is not one of this account's WhatsApp templates.";
export const contentSidNotApproved = (status: string) =>
  `This WhatsApp template is not approved (its status is ${status}); choose an approved one.`;
export const CONTENT_VARIABLES_WITHOUT_SID = "ContentVariables needs a ContentSid.";
export const CONTENT_VARIABLES_NOT_JSON = "ContentVariables must be a JSON object, e.g. {\"1\":\"Fresh bread\"}.";
export const TEMPLATE_NEEDS_IMAGE = "This WhatsApp template has an image header: choose an image.";

/** A template chosen for a publish, with the owner's variables checked against it. */
interface TemplateChoice {
  template: WhatsAppTemplate;
  values: Record<string, string>;
}

export interface UpdateScheduledInput {
  broadcastId: unknown;
  messageText?: unknown;
  scheduledFor?: unknown;
  /** A new WhatsApp template and variables ("" = no template any more); absent = keep the broadcast's. */
  contentSid?: unknown;
  contentVariables?: unknown;
}

export interface DryRun {
  businessId: number;
  businessName: string;
  messageText: string;
  counts: SubscriberCounts;
  recipients: Recipient[];
}

export function queuedMessage(n: number): string {
  const s = n === 1 ? "" : "s";
  return `Broadcast queued: ${n} message${s} to ${n} subscriber${s}.`;
}

export function toSummary(row: BroadcastRow, c: StatusCounts, waiting: WaitingCounts = { quietHours: 0, dailyLimit: 0 }): BroadcastSummary {
  return {
    id: row.id,
    businessId: row.businessId,
    messageText: row.messageText,
    imagePath: row.imagePath,
    createdAt: new Date(row.createdAt).toISOString(),
    total: row.total,
    queued: c.Queued + c.Sending + c.Uncertain,
    sent: c.Sent,
    delivered: c.Delivered,
    failed: c.Failed + c.Skipped,
    skipped: c.Skipped,
    waiting,
    completedAt: row.completedAt === null ? null : new Date(row.completedAt).toISOString(),
    scheduledFor: iso(row.scheduledFor),
    startedAt: iso(row.startedAt),
    cancelledAt: iso(row.cancelledAt),
    state: stateOf(row),
  };
}

const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());

function stateOf(row: BroadcastRow): BroadcastState {
  if (row.cancelledAt !== null) return "cancelled";
  if (row.startedAt === null && row.scheduledFor !== null) return "scheduled";
  return row.completedAt === null ? "sending" : "completed";
}

/** "Scheduled for ...": the time as the owner wrote it (with their offset), so it reads back as given. */
export function scheduledMessage(scheduledFor: string): string {
  return `Broadcast scheduled for ${scheduledFor}. Its recipients are the active subscribers at that time.`;
}

/**
 * ScheduledFor: undefined when absent or empty (send now); otherwise the time in ms, or a 400 naming the field when it
 * has no offset, is not a real time, is not in the future or is more than MAX_SCHEDULE_DAYS ahead.
 */
export function parseScheduledFor(raw: unknown, now: number): { at: number; text: string } | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = typeof raw === "string" ? raw.trim() : null;
  if (text === "") return undefined;
  const m = text === null ? null : ISO_WITH_OFFSET.exec(text);
  const bad = () => new ValidationError(SCHEDULED_FOR_INVALID, { ScheduledFor: SCHEDULED_FOR_INVALID });
  if (!m) throw bad();
  const [, y, mo, d, h, mi, sec] = m.map(Number) as number[];
  // Date.parse rolls 2026-02-30 over to March: check the fields are a real calendar time.
  const wall = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, Number.isNaN(sec) ? 0 : sec));
  const real = wall.getUTCFullYear() === y && wall.getUTCMonth() === mo! - 1 && wall.getUTCDate() === d &&
    wall.getUTCHours() === h && wall.getUTCMinutes() === mi;
  const at = Date.parse(text!.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  if (!real || Number.isNaN(at)) throw bad();
  if (at <= now) throw new ValidationError(SCHEDULED_FOR_PAST, { ScheduledFor: SCHEDULED_FOR_PAST });
  if (at > now + MAX_SCHEDULE_DAYS * 86_400_000) {
    throw new ValidationError(SCHEDULED_FOR_TOO_FAR, { ScheduledFor: SCHEDULED_FOR_TOO_FAR });
  }
  return { at, text: text! };
}

function parseBroadcastId(raw: unknown): number {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!text) throw new ValidationError(BROADCAST_ID_REQUIRED, { BroadcastId: BROADCAST_ID_REQUIRED });
  const id = parseIdText(text);
  if (id === null) throw new ValidationError(BROADCAST_ID_INVALID, { BroadcastId: BROADCAST_ID_INVALID });
  return id;
}

function parseBusinessId(raw: unknown): number {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (!text) throw new ValidationError(BUSINESS_ID_REQUIRED, { BusinessId: BUSINESS_ID_REQUIRED });
  const id = parseIdText(text);
  if (id === null) throw new ValidationError(BUSINESS_ID_INVALID, { BusinessId: BUSINESS_ID_INVALID });
  return id;
}

function parseMessage(raw: unknown): string {
  const text = typeof raw === "string" ? raw.trim() : "";
  if (!text) throw new ValidationError(MESSAGE_REQUIRED, { MessageText: MESSAGE_REQUIRED });
  if (text.length > MAX_BODY_LENGTH) throw new ValidationError(MESSAGE_TOO_LONG, { MessageText: MESSAGE_TOO_LONG });
  return text;
}

function parseConfirm(raw: unknown): boolean {
  if (raw === undefined || raw === null || raw === false) return false;
  if (raw === true) return true;
  const text = typeof raw === "string" ? raw.trim().toLowerCase() : null;
  if (text === "true") return true;
  if (text === "false" || text === "") return false;
  throw new ValidationError(CONFIRM_INVALID, { Confirm: CONFIRM_INVALID });
}

/** Checks the image by its content (JPEG, PNG, GIF, BMP) and size, before anything is stored. */
export function checkBroadcastImage(bytes: Uint8Array): void {
  if (bytes.length > MAX_IMAGE_BYTES) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
  if (!sniffImage(bytes.subarray(0, SNIFF_BYTES))) {
    throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
  }
}

/** The variables as sent: the owner's, plus the media header's (the stored image's file name, for a template whose
 * media URL ends in …/uploads/{{n}}). */
function variablesJson(choice: TemplateChoice, imagePath: string | null): string {
  const values = { ...choice.values };
  if (choice.template.mediaVariable && imagePath) values[choice.template.mediaVariable] = imagePath.split("/").pop()!;
  return JSON.stringify(values);
}

export function createBroadcastsService({
  repos,
  clock,
  uploads,
  templates,
  settings,
}: {
  repos: Repos;
  clock: Clock;
  uploads: UploadsService;
  templates?: WhatsAppTemplatesService;
  /** Whether an image can be handed to Twilio (it needs the saved public URL): see public-links.ts. */
  settings: Pick<SettingsService, "savedPublicUrl" | "current">;
}) {
  /** ContentSid/ContentVariables -> the approved template and checked values; null when no template is given.
   * 400 naming the field for an unknown or unapproved sid, or variables that do not fit. */
  async function templateChoice(rawSid: unknown, rawVariables: unknown, hasImage: boolean): Promise<TemplateChoice | null> {
    const sid = typeof rawSid === "string" ? rawSid.trim() : rawSid === undefined || rawSid === null ? "" : null;
    const varsText = typeof rawVariables === "string" ? rawVariables.trim() : rawVariables === undefined || rawVariables === null ? "" : null;
    if (sid === "") {
      if (varsText !== "") throw new ValidationError(CONTENT_VARIABLES_WITHOUT_SID, { ContentVariables: CONTENT_VARIABLES_WITHOUT_SID });
      return null;
    }
    const template = sid && /^HX\w{32}$/.test(sid) && templates ? await templates.find(sid) : null;
    if (!template) throw new ValidationError(CONTENT_SID_UNKNOWN, { ContentSid: CONTENT_SID_UNKNOWN });
    if (template.status !== "approved") {
      const text = contentSidNotApproved(template.status);
      throw new ValidationError(text, { ContentSid: text });
    }
    let values: unknown = {};
    if (varsText === null) throw new ValidationError(CONTENT_VARIABLES_NOT_JSON, { ContentVariables: CONTENT_VARIABLES_NOT_JSON });
    if (varsText !== "") {
      try {
        values = JSON.parse(varsText);
      } catch {
        throw new ValidationError(CONTENT_VARIABLES_NOT_JSON, { ContentVariables: CONTENT_VARIABLES_NOT_JSON });
      }
    }
    const problem = variablesProblem(template, values);
    if (problem) throw new ValidationError(problem, { ContentVariables: problem });
    if (template.mediaHeader && template.mediaVariable && !hasImage) throw new ValidationError(TEMPLATE_NEEDS_IMAGE, { Image: TEMPLATE_NEEDS_IMAGE });
    return { template, values: values as Record<string, string> };
  }

  /** The business's WhatsApp recipients now, by what will become of them (see whatsapp-skips.ts). A page at a time,
   * giving the server its turn between pages: a big business has tens of thousands. */
  async function audience(businessId: number): Promise<WhatsAppAudience> {
    const since = clock.now().getTime() - WHATSAPP_WINDOW_MS;
    const out: WhatsAppAudience = { whatsapp: 0, inWindow: 0, needTemplate: 0, usNumbers: 0, marketingStopped: 0 };
    for (let after = 0; ; await nextTurn()) {
      const page = repos.broadcasts.whatsappRecipientsPage(businessId, since, after, AUDIENCE_PAGE);
      for (const r of page) {
        out.whatsapp++;
        if (r.inWindow) out.inWindow++;
        if (r.marketingStopped) {
          out.marketingStopped++;
          continue;
        }
        if (!r.inWindow) out.needTemplate++;
        if (isUsNumber(r.phone)) out.usNumbers++;
      }
      if (page.length < AUDIENCE_PAGE) return out;
      after = page.at(-1)!.subscriptionId;
    }
  }

  async function skipWarning(businessId: number, choice: TemplateChoice | null): Promise<{ warning?: string }> {
    const text = whatsappSkipWarning(await audience(businessId), choice !== null);
    return text ? { warning: text } : {};
  }

  /** A business the actor may read (another owner's: 404, as for every other read). */
  function readable(actor: Principal, businessId: number) {
    const row = repos.businesses.findById(businessId);
    if (!row || !canManage(actor, row)) throw new NotFoundError(BUSINESS_NOT_FOUND);
    return row;
  }

  /** The business a broadcast goes to: 404 when there is none, 403 when it is another owner's. */
  function sendable(actor: Principal, businessId: number) {
    const business = repos.businesses.findById(businessId);
    if (!business) throw new NotFoundError(BUSINESS_NOT_FOUND);
    if (!canManage(actor, business)) throw new ForbiddenError(NOT_YOUR_BUSINESS);
    requireApprovedOwner(repos, business.ownerId, actor);
    return business;
  }

  function broadcastOf(actor: Principal, id: number): BroadcastRow {
    const row = repos.broadcasts.findById(id);
    if (!row || !canManage(actor, row)) throw new NotFoundError(BROADCAST_NOT_FOUND);
    return row;
  }

  /** Several broadcasts' summaries: their counts in one read; only an unfinished one can have deliveries waiting. */
  function summaries(rows: BroadcastRow[]): BroadcastSummary[] {
    const counts = repos.broadcasts.countsFor(rows.map((r) => r.id));
    return rows.map((row) => toSummary(row, counts.get(row.id)!, row.completedAt === null ? repos.deliveries.waiting(row.id) : undefined));
  }

  function summary(row: BroadcastRow): BroadcastSummary {
    return toSummary(row, repos.deliveries.counts(row.id), repos.deliveries.waiting(row.id));
  }

  /** Removes an image stored for a broadcast that was not written after all. */
  function discard(filePath: string): void {
    const upload = uploads.find(filePath);
    const path = uploads.localPath(filePath);
    if (upload) repos.uploads.delete(upload.fileName);
    if (path) {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
  }

  /**
   * The outbox write: the broadcast row (with the repeat check, in one durable write transaction), then one delivery
   * per active subscriber, a chunk per transaction with a pause between, then one durable commit (deliveries.enqueueNextChunk), so a
   * 100,000-recipient broadcast never holds the server for long (bench/stall.ts). None is sent before the last chunk
   * is written; a failure takes it all back. Should the process die meanwhile, enqueued_through tells the dispatcher
   * where to go on. null when nobody was subscribed after all (the row goes).
   */
  async function enqueue(businessId: number, createdBy: number | null, messageText: string, imagePath: string | null, confirm: boolean, choice: TemplateChoice | null) {
    const now = clock.now().getTime();
    // Durable (fsynced) before the owner is told it is queued: a power cut must not drop a broadcast silently.
    const id = repos.durableTransaction(() => {
      // The repeat check and the insert in one write transaction (BEGIN IMMEDIATE): of two identical publishes at
      // the same moment (two tabs, a double click, the CLI and the web), the second sees the first.
      if (!confirm) refuseRepeat(businessId, messageText, now);
      const template = choice ? { contentSid: choice.template.sid, contentVariables: variablesJson(choice, imagePath) } : {};
      return repos.broadcasts.insert({ businessId, createdBy, messageText, imagePath, createdAt: now, ...template });
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

  /** 409 when the business got a broadcast with this very text within REPEAT_WINDOW_MS. Same text, whatever the
   * image: the customers would read the same words twice. Only the business's own broadcasts count. */
  function refuseRepeat(businessId: number, messageText: string, now: number): void {
    const earlier = repos.broadcasts.latestWithText(businessId, messageText, now - REPEAT_WINDOW_MS);
    if (earlier) throw new DuplicateBroadcastError(earlier.id);
  }

  /**
   * A scheduled publish: the broadcasts row only (scheduled_for set, started_at NULL, no deliveries, total 0); the
   * dispatcher decides the recipients when it starts it. Accepted even with nobody subscribed yet (people may
   * subscribe meanwhile; started with nobody, it completes with total 0). The repeat check counts it like any publish.
   */
  async function scheduleFor(
    business: { id: number; ownerId: number },
    createdBy: number | null,
    messageText: string,
    image: Uint8Array | null,
    confirm: boolean,
    scheduled: { at: number; text: string },
    choice: TemplateChoice | null,
  ): Promise<PublishResult> {
    if (image) checkBroadcastImage(image);
    if (!confirm) refuseRepeat(business.id, messageText, clock.now().getTime());
    const stored = image ? await uploads.saveBytes(business.ownerId, "broadcast", image) : null;
    let id: number;
    try {
      id = repos.durableTransaction(() => {
        const now = clock.now().getTime();
        if (!confirm) refuseRepeat(business.id, messageText, now);
        const imagePath = stored?.filePath ?? null;
        const template = choice ? { contentSid: choice.template.sid, contentVariables: variablesJson(choice, imagePath) } : {};
        return repos.broadcasts.insert({ businessId: business.id, createdBy, messageText, imagePath, createdAt: now, scheduledFor: scheduled.at, ...template });
      });
    } catch (e) {
      if (stored) discard(stored.filePath);
      throw e;
    }
    const recipients = repos.broadcasts.subscriberCounts(business.id).total;
    return {
      message: scheduledMessage(scheduled.text),
      broadcastId: id,
      recipients,
      scheduledFor: new Date(scheduled.at).toISOString(),
      ...(await skipWarning(business.id, choice)),
    };
  }

  /** The broadcast to edit or cancel: 404 for another owner's, 409 once it started (or was cancelled). */
  function waitingBroadcast(actor: Principal, id: number): BroadcastRow {
    const row = broadcastOf(actor, id);
    if (row.cancelledAt !== null) throw new ConflictError(ALREADY_CANCELLED);
    if (row.startedAt !== null || row.scheduledFor === null) throw new ConflictError(ALREADY_STARTED);
    return row;
  }

  /** After a guarded write changed nothing: the dispatcher started it (or someone cancelled it) meanwhile. */
  function conflictNow(id: number): never {
    const row = repos.broadcasts.findById(id);
    throw new ConflictError(row?.cancelledAt ? ALREADY_CANCELLED : ALREADY_STARTED);
  }

  async function publishTo(
    business: { id: number; ownerId: number },
    createdBy: number | null,
    messageText: string,
    image: Uint8Array | null,
    confirm: boolean,
    choice: TemplateChoice | null,
  ): Promise<PublishResult> {
    if (image) checkBroadcastImage(image);
    // Checked early too, so a repeat stores no image; the check that counts is in the enqueue transaction.
    if (!confirm) refuseRepeat(business.id, messageText, clock.now().getTime());
    if (!repos.broadcasts.hasRecipients(business.id)) return { warning: NO_SUBSCRIBERS };
    // The image is stored under the business owner (it is the owner's broadcast, whoever pressed Send).
    const stored = image ? await uploads.saveBytes(business.ownerId, "broadcast", image) : null;
    let written: { id: number; n: number } | null;
    // Told before the enqueue: the same people its WhatsApp rules then skip.
    const warned = await skipWarning(business.id, choice);
    try {
      written = await enqueue(business.id, createdBy, messageText, stored?.filePath ?? null, confirm, choice);
    } catch (e) {
      if (stored) discard(stored.filePath);
      throw e;
    }
    if (!written) {
      if (stored) discard(stored.filePath);
      return { warning: NO_SUBSCRIBERS };
    }
    return { message: queuedMessage(written.n), broadcastId: written.id, recipients: written.n, ...warned };
  }

  function withImageErrors<T>(p: Promise<T>): Promise<T> {
    // The uploads service speaks the business form's texts; a broadcast has its own (spec section 5).
    return p.catch((e: unknown) => {
      if (e instanceof PayloadTooLargeError) throw new PayloadTooLargeError(BROADCAST_IMAGE_TOO_LARGE);
      if (e instanceof ValidationError && e.fields?.file) {
        throw new ValidationError(BROADCAST_INVALID_IMAGE, { Image: BROADCAST_INVALID_IMAGE });
      }
      throw e;
    });
  }

  return {
    /**
     * POST PublishMessageToAllCustomers (and the CLI's broadcast send, as the operator). 400 for a missing business
     * id or blank text, 404 for an unknown business, 403 for another owner's (an admin may broadcast for any),
     * 400/413 for a bad image; {warning} when the business has no active subscriber; 409 duplicate_broadcast
     * (DuplicateBroadcastError, with duplicateOf) when the same text went to the business within 10 minutes and
     * `confirm` is not true.
     */
    async publish(actor: Principal, input: PublishInput): Promise<PublishResult> {
      const businessId = parseBusinessId(input.businessId);
      const messageText = parseMessage(input.messageText);
      const confirm = parseConfirm(input.confirm);
      const scheduled = parseScheduledFor(input.scheduledFor, clock.now().getTime());
      const business = sendable(actor, businessId);
      const image = input.image && input.image.length > 0 ? input.image : null;
      if (image) refuseImageWithoutPublicUrl(settings, "Image");
      const choice = await templateChoice(input.contentSid, input.contentVariables, image !== null);
      if (scheduled) return withImageErrors(scheduleFor(business, actingUserId(actor), messageText, image, confirm, scheduled, choice));
      return withImageErrors(publishTo(business, actingUserId(actor), messageText, image, confirm, choice));
    },

    /** GET WhatsAppAudience: who on WhatsApp a broadcast would reach now, and who it would skip (before sending). */
    async whatsappAudience(actor: Principal, businessId: number): Promise<WhatsAppAudience & { warningWithoutTemplate: string | null; warningWithTemplate: string | null }> {
      readable(actor, businessId);
      const a = await audience(businessId);
      return { ...a, warningWithoutTemplate: whatsappSkipWarning(a, false), warningWithTemplate: whatsappSkipWarning(a, true) };
    },

    /** GET WhatsAppTemplates: the account's templates (or the sandbox's), for any signed-in owner or admin. */
    whatsappTemplates(): Promise<WhatsAppTemplate[]> {
      if (!templates) return Promise.resolve([]);
      return templates.list();
    },

    /**
     * POST UpdateScheduledBroadcast: a new text and/or time for a scheduled broadcast that has not started. 400 for
     * bad fields (nothing changed), 404 for another owner's, 409 once it started or was cancelled.
     */
    async updateScheduled(actor: Principal, input: UpdateScheduledInput): Promise<BroadcastSummary> {
      const id = parseBroadcastId(input.broadcastId);
      const textGiven = typeof input.messageText === "string" && input.messageText.trim() !== "";
      const messageText = textGiven ? parseMessage(input.messageText) : undefined;
      const scheduled = parseScheduledFor(input.scheduledFor, clock.now().getTime());
      const templateGiven = input.contentSid !== undefined || input.contentVariables !== undefined;
      if (messageText === undefined && scheduled === undefined && !templateGiven) {
        throw new ValidationError(NOTHING_TO_UPDATE, { MessageText: NOTHING_TO_UPDATE, ScheduledFor: NOTHING_TO_UPDATE });
      }
      const row = waitingBroadcast(actor, id);
      let template: { contentSid: string | null; contentVariables: string | null } | undefined;
      if (templateGiven) {
        const choice = await templateChoice(input.contentSid, input.contentVariables, row.imagePath !== null);
        template = choice ? { contentSid: choice.template.sid, contentVariables: variablesJson(choice, row.imagePath) } : { contentSid: null, contentVariables: null };
      }
      // Guarded by started_at/cancelled_at IS NULL: if the dispatcher started it since the read above, nothing changes.
      if (!repos.broadcasts.updateScheduled(id, { messageText, scheduledFor: scheduled?.at, ...template })) conflictNow(id);
      return summary(repos.broadcasts.findById(id)!);
    },

    /** POST CancelBroadcast: a scheduled broadcast that has not started will never be sent. 404 for another owner's,
     * 409 once it started or was cancelled. */
    cancel(actor: Principal, rawId: unknown): { message: string; broadcast: BroadcastSummary } {
      const id = parseBroadcastId(rawId);
      waitingBroadcast(actor, id);
      if (!repos.broadcasts.cancelScheduled(id, clock.now().getTime())) conflictNow(id);
      return { message: "Scheduled broadcast cancelled; it will not be sent.", broadcast: summary(repos.broadcasts.findById(id)!) };
    },

    /** What a publish would do now, without writing anything (CLI --dry-run). */
    dryRun(actor: Principal, input: PublishInput): DryRun {
      const businessId = parseBusinessId(input.businessId);
      const messageText = parseMessage(input.messageText);
      if (input.image && input.image.length > 0) {
        checkBroadcastImage(input.image);
        refuseImageWithoutPublicUrl(settings, "Image");
      }
      const business = sendable(actor, businessId);
      return {
        businessId,
        businessName: business.name,
        messageText,
        counts: repos.broadcasts.subscriberCounts(businessId),
        recipients: repos.broadcasts.recipients(businessId),
      };
    },

    subscriberCount(actor: Principal, businessId: number): SubscriberCounts {
      readable(actor, businessId);
      return repos.broadcasts.subscriberCounts(businessId);
    },

    /** The business's broadcasts, newest first (at most 100). */
    list(actor: Principal, businessId: number): BroadcastSummary[] {
      readable(actor, businessId);
      return summaries(repos.broadcasts.listByBusiness(businessId));
    },

    /** GET ListBroadcasts: the history a page at a time, newest first (cursor, limit), with the total. */
    page(actor: Principal, businessId: number, query: Record<string, string | undefined>): Page<BroadcastSummary> {
      const errors: Record<string, string> = {};
      const { after, limit } = checkPageParams<number>(query, "number", errors);
      throwIfInvalid(errors);
      readable(actor, businessId);
      const rows = repos.broadcasts.pageByBusiness(businessId, after, limit + 1);
      return pageOf(rows, limit, (r) => ({ key: new Date(r.createdAt).getTime(), id: r.id }), repos.broadcasts.countByBusiness(businessId), summaries);
    },

    status(actor: Principal, id: number): BroadcastSummary {
      return summary(broadcastOf(actor, id));
    },

    /** Failed deliveries that may succeed on another try go back to the queue (never an opted-out number). */
    retryFailed(actor: Principal, broadcastId: number): { message: string; requeued: number } {
      const row = broadcastOf(actor, broadcastId);
      requireApprovedOwner(repos, row.ownerId, actor);
      const requeued = repos.deliveries.retryFailed(row.id, clock.now().getTime());
      const message =
        requeued === 0
          ? "No failed messages can be retried."
          : `Requeued ${requeued} failed message${requeued === 1 ? "" : "s"}.`;
      return { message, requeued };
    },
  };
}

export type BroadcastsService = ReturnType<typeof createBroadcastsService>;

