// "Send a test to my phone" (issue 11, item 6): ONE message to the owner's own number, sent at once through the
// messenger of the moment. It is not a broadcast: no broadcasts or deliveries row, so it is in no history, no repeat
// check and no daily cap. What the provider said comes back to the owner as it is (sent, or failed with the reason).
import type { Clock } from "../../clock.ts";
import { NotFoundError, TooManyRequestsError, ValidationError } from "../../errors.ts";
import { RateLimiter } from "../../lib/rate-limiter.ts";
import type { Messenger, SendOutcome } from "../../messaging/messenger.ts";
import type { Repos } from "../../repos/index.ts";
import type { UserRow } from "../../repos/users.ts";
import { MY_PHONE_MISSING } from "../../schemas/auth.ts";
import { type TestSendBody, testSendSchema } from "../../schemas/broadcast-input.ts";
import type * as v from "valibot";
import { BUSINESS_NOT_FOUND } from "../../schemas/texts.ts";
import { checkBroadcastImage } from "./image.ts";
import { canManage } from "../principal.ts";
import { refuseImageWithoutPublicUrl } from "../public-links.ts";
import type { SettingsService } from "../settings.ts";
import type { UploadsService } from "../uploads.ts";
import { requireApprovedOwner } from "../owner-approval.ts";
import { budgetRefusal, type TryNow } from "../phone-verification.ts";
import { TEST_SENDS_PER_DAY, VERIFY_FIRST } from "../../schemas/phone-verification.ts";
import { waitText } from "../../lib/wait-text.ts";
import { validateForm } from "../validate.ts";
import type { WhatsAppTemplatesService } from "../whatsapp-templates.ts";
import { testCallbackPath } from "./test-outcome.ts";
import { type TemplateChoice, templateChoice, templateColumns } from "./template-choice.ts";
import { e164OrThrow, refuseUntextable } from "../number-rules.ts";

const DAY_MS = 24 * 3600_000;

type TestSendInput = v.InferOutput<typeof testSendSchema>;

/** Test sends per owner per minute: enough to try a few wordings, too few to pump texts to a number. */
export const TEST_SENDS_PER_MINUTE = 10;
export const IMAGE_PATH_INVALID = "ImagePath must be an image you uploaded (/uploads/...).";
export const TEST_SEND_THROTTLED = `At most ${TEST_SENDS_PER_MINUTE} test messages a minute. Please wait a moment.`;

/** `testId`: read its outcome with GET TestStatus (the status callbacks move it on). */
export type TestSendResult =
  | { result: "sent"; message: string; to: string; channel: "SMS" | "WhatsApp"; providerId: string; testId: number }
  | { result: "failed"; message: string; to: string; channel: "SMS" | "WhatsApp"; reason: string; testId: number };

export interface TestSendDeps {
  repos: Repos;
  clock: Clock;
  uploads: UploadsService;
  /** Whether an image can be handed to Twilio (it needs the saved public URL): see public-links.ts. */
  settings: Pick<SettingsService, "savedPublicUrl" | "current" | "messaging">;
  /** The hourly budget of texts nobody broadcast (text-budget.ts): a test goes now or not at all. */
  tryNow: TryNow;
  /** A messenger from the settings of the moment, and its release once the one message is handed over. */
  openMessenger: () => Messenger;
  closeMessenger: (m: Messenger) => void;
  /** The account's WhatsApp templates: a WhatsApp test with ContentSid sends that template, as the broadcast would. */
  templates?: WhatsAppTemplatesService;
}

/** Why a send did not go out, in the owner's words. */
function reasonOf(outcome: Exclude<SendOutcome, { kind: "sent" }>): string {
  switch (outcome.kind) {
    case "rate_limited":
      return `The provider is busy (rate limited); try again in a moment. ${outcome.message}`.trim();
    case "unavailable":
      return `The provider could not be reached: ${outcome.message}`;
    case "uncertain":
      return `No clear answer from the provider; the message may or may not arrive. ${outcome.message}`.trim();
    case "opted_out":
      return "Your number replied STOP to this sender; reply START to receive messages again.";
    case "failed":
      return outcome.code === null ? outcome.message : `${outcome.message} (error ${outcome.code})`;
    case "account_problem":
      return `${outcome.message}. ${outcome.fix}`;
  }
}

export function createTestSendService({ repos, clock, uploads, settings, tryNow, openMessenger, closeMessenger, templates }: TestSendDeps) {
  const perUser = new RateLimiter(clock, TEST_SENDS_PER_MINUTE, 60_000);

  function businessOf(user: UserRow, id: number) {
    const business = repos.businesses.findById(id);
    if (!business || !canManage(user, business)) throw new NotFoundError(BUSINESS_NOT_FOUND);
    return business;
  }

  /** An image the owner already uploaded (the broadcast's own, a logo...): only theirs, unless admin. */
  function uploadedImage(user: UserRow, path: string | null): string | null {
    if (path === null) return null;
    const row = uploads.find(path);
    if (!row || (row.ownerId !== user.id && user.role !== "admin")) {
      throw new ValidationError(IMAGE_PATH_INVALID, { ImagePath: IMAGE_PATH_INVALID });
    }
    return `/uploads/${row.fileName}`;
  }

  /**
   * Throws the 429 of a test that cannot go now (TEST_SENDS_PER_MINUTE, TEST_SENDS_PER_DAY, then the hourly budget,
   * which takes the text's slot); otherwise counts it.
   */
  function admit(ownerId: number, to: string): void {
    const key = `user:${ownerId}`;
    const wait = perUser.retryAfter(key);
    if (wait > 0) throw new TooManyRequestsError(TEST_SEND_THROTTLED, wait);
    const now = clock.now();
    const today = repos.testSends.recent(ownerId, now.getTime() - DAY_MS, TEST_SENDS_PER_DAY);
    if (today.length >= TEST_SENDS_PER_DAY) {
      const seconds = Math.max(1, Math.ceil((today[TEST_SENDS_PER_DAY - 1]! + DAY_MS - now.getTime()) / 1000));
      throw new TooManyRequestsError(`At most ${TEST_SENDS_PER_DAY} test messages a day: the next one can go in ${waitText(seconds)}.`, seconds);
    }
    const budget = tryNow({ ownerId, kind: "test", phone: to, now });
    if (!budget.ok) throw budgetRefusal("the next test", budget.retryAfterSeconds);
    perUser.record(key);
  }

  /** The provider's answer on the test's row (a callback may already have moved it further: never back). */
  function recordAnswer(testId: number, outcome: SendOutcome): void {
    const now = clock.now();
    if (outcome.kind === "sent") {
      const status = outcome.status === "Queued" ? "Sent" : outcome.status;
      repos.testSends.advance(testId, { status, providerId: outcome.providerId, providerStatus: outcome.providerStatus, errorCode: null, errorMessage: null }, now);
    } else if (outcome.kind !== "uncertain") {
      // Uncertain: it may have gone; the callback, if any, says so.
      const code = outcome.kind === "failed" || outcome.kind === "opted_out" ? outcome.code : null;
      repos.testSends.advance(testId, { status: "Failed", providerStatus: null, errorCode: code, errorMessage: reasonOf(outcome) }, now);
    }
  }

  /** Stores a new image, writes the test's row, sends it with its callback, and records the provider's answer. */
  async function deliver(t: { ownerId: number; business: { id: number; ownerId: number }; to: string; input: TestSendInput; choice: TemplateChoice | null; mediaUrl: string | null }): Promise<TestSendResult> {
    const { business, to, input, choice } = t;
    const { messageText: body, channel, image } = input;
    let mediaUrl = t.mediaUrl;
    // A new image is stored like a broadcast's (the provider fetches it by URL); the hourly sweep removes it once
    // it is a day old, as nothing references it.
    if (image) mediaUrl = (await uploads.saveBytes(business.ownerId, "broadcast", image)).filePath;
    const template = templateColumns(choice, mediaUrl);
    const shown = channel === "whatsapp" ? "WhatsApp" : "SMS";
    const test = repos.testSends.insert({ ownerId: t.ownerId, businessId: business.id, channel: shown, toPhone: to, contentSid: template.contentSid });

    const messenger = openMessenger();
    let outcome: SendOutcome;
    try {
      const content = template.contentSid ? { contentSid: template.contentSid, contentVariables: template.contentVariables ?? "{}" } : {};
      outcome = await messenger.send({ to, channel, body, ...(mediaUrl ? { mediaUrl } : {}), ...content, statusCallback: testCallbackPath(test.id) });
    } finally {
      closeMessenger(messenger);
    }
    recordAnswer(test.id, outcome);
    const as = template.contentSid ? `${shown} (template ${choice!.template.name})` : shown;
    if (outcome.kind === "sent") {
      return { result: "sent", message: `Test sent by ${as} to ${to}.`, to, channel: shown, providerId: outcome.providerId, testId: test.id };
    }
    const reason = reasonOf(outcome);
    return { result: "failed", message: `The test to ${to} was not sent: ${reason}`, to, channel: shown, reason, testId: test.id };
  }

  return {
    /**
     * POST /api/broadcast/SendTest. 403 for an owner the admin has not approved; 400 naming the field (BusinessId,
     * MessageText, Channel, Image, ImagePath, phone when the owner has no number or has not verified it), 404 for a
     * business not theirs, 429 with Retry-After past TEST_SENDS_PER_MINUTE, TEST_SENDS_PER_DAY or the hourly budget.
     * Every check comes before the throttle counts and before an image is stored.
     */
    async send(user: UserRow, given: TestSendBody): Promise<TestSendResult> {
      requireApprovedOwner(repos, user.id, user);
      const input = validateForm(testSendSchema, given);
      const business = businessOf(user, input.businessId);
      const { channel, image } = input;
      if (image) checkBroadcastImage(image);
      const mediaUrl = image ? null : uploadedImage(user, input.imagePath);
      if (image || mediaUrl) refuseImageWithoutPublicUrl(settings, image ? "Image" : "ImagePath");
      // Only WhatsApp messages carry a template (an SMS test sends the text, as the broadcast's SMS recipients get it).
      const choice = channel === "whatsapp" ? await templateChoice(templates, input, Boolean(image || mediaUrl)) : null;
      const me = repos.users.findById(user.id);
      const to = me?.phone ?? null;
      if (!to) throw new ValidationError(MY_PHONE_MISSING, { phone: MY_PHONE_MISSING });
      if (!me?.phoneVerifiedAt) throw new ValidationError(VERIFY_FIRST, { phone: VERIFY_FIRST });
      admit(user.id, to);
      return deliver({ ownerId: user.id, business, to, input, choice, mediaUrl });
    },

    /** `nearcast broadcast test`: the operator sends a business's test to any number the number rules allow (no
     * image), under the business owner's budgets. 404 for an unknown business; 400 naming phone or the field. */
    async sendAsOperator(given: TestSendBody & { to: string }): Promise<TestSendResult> {
      const input = validateForm(testSendSchema, { ...given, image: null, imagePath: null });
      const business = repos.businesses.findById(input.businessId);
      if (!business) throw new NotFoundError(BUSINESS_NOT_FOUND);
      const to = e164OrThrow(given.to, "US");
      refuseUntextable(to, settings.current().allowedCountries);
      const choice = input.channel === "whatsapp" ? await templateChoice(templates, input, false) : null;
      admit(business.ownerId, to);
      return deliver({ ownerId: business.ownerId, business, to, input, choice, mediaUrl: null });
    },
  };
}

export type TestSendService = ReturnType<typeof createTestSendService>;
