// The broadcast input schemas (src/schemas/broadcast-input.ts) as the services run them (validateForm): one field
// named at a time, as the form names it; a file part where text belongs treated as each field always treated it.
import { describe, expect, test } from "bun:test";
import { ValidationError } from "../../src/errors.ts";
import {
  BUSINESS_ID_INVALID,
  BUSINESS_ID_REQUIRED,
  CHANNEL_INVALID,
  CONFIRM_INVALID,
  TRACK_LINKS_INVALID,
  MESSAGE_TOO_LONG,
  MAX_BODY_LENGTH,
  publishSchema,
  SCHEDULED_FOR_INVALID,
  SCHEDULED_FOR_PAST,
  SCHEDULED_FOR_TOO_FAR,
  scheduleProblem,
  scheduleUpdateSchema,
  testSendSchema,
} from "../../src/schemas/broadcast-input.ts";
import { MESSAGE_REQUIRED } from "../../src/schemas/texts.ts";
import { validateForm } from "../../src/services/validate.ts";

/** What the form reader passes for a file part in a text field. */
const FILE_PART = { filename: "x.txt", bytes: null };

function refusal(run: () => unknown): { message: string; fields: Record<string, string> | undefined } {
  try {
    run();
  } catch (e) {
    if (e instanceof ValidationError) return { message: e.message, fields: e.fields };
    throw e;
  }
  throw new Error("not refused");
}

describe("publishSchema through validateForm", () => {
  test("the first field at fault alone, named as the form names it", () => {
    expect(refusal(() => validateForm(publishSchema, {}))).toEqual({ message: BUSINESS_ID_REQUIRED, fields: { BusinessId: BUSINESS_ID_REQUIRED } });
    expect(refusal(() => validateForm(publishSchema, { businessId: "0", confirm: "maybe" })).fields).toEqual({ BusinessId: BUSINESS_ID_INVALID });
    expect(refusal(() => validateForm(publishSchema, { businessId: 3, confirm: "maybe" })).fields).toEqual({ MessageText: MESSAGE_REQUIRED });
    expect(refusal(() => validateForm(publishSchema, { businessId: "3", messageText: "x".repeat(MAX_BODY_LENGTH + 1) })).fields).toEqual({ MessageText: MESSAGE_TOO_LONG });
    expect(refusal(() => validateForm(publishSchema, { businessId: "3", messageText: "Hi", confirm: "maybe" })).fields).toEqual({ Confirm: CONFIRM_INVALID });
    // Date.parse would roll February 30th over to March.
    expect(refusal(() => validateForm(publishSchema, { businessId: "3", messageText: "Hi", scheduledFor: "2026-02-30T09:00Z" })).fields).toEqual({ ScheduledFor: SCHEDULED_FOR_INVALID });
    expect(refusal(() => validateForm(publishSchema, { businessId: "3", messageText: "Hi", scheduledFor: "2026-02-03T09:00" })).fields).toEqual({ ScheduledFor: SCHEDULED_FOR_INVALID });
  });

  test("what a valid form becomes", () => {
    const input = validateForm(publishSchema, { businessId: " 12 ", messageText: "  Fresh bread ", confirm: " TRUE", scheduledFor: "2026-11-24T09:00-0500", contentSid: " HX1 ", image: new Uint8Array() });
    expect(input).toEqual({
      businessId: 12,
      messageText: "Fresh bread",
      confirm: true,
      scheduledFor: { text: "2026-11-24T09:00-0500", at: Date.parse("2026-11-24T14:00:00Z") },
      image: null,
      contentSid: "HX1",
      contentVariables: undefined,
      couponCode: null,
      uniqueCoupons: false,
      couponExpires: null,
      trackLinks: true,
    });
    expect(validateForm(publishSchema, { businessId: "1", messageText: "x", confirm: "", scheduledFor: " " })).toMatchObject({ confirm: false, scheduledFor: undefined });
    expect(validateForm(publishSchema, { businessId: "1", messageText: "x", trackLinks: " FALSE " })).toMatchObject({ trackLinks: false });
    expect(validateForm(publishSchema, { businessId: "1", messageText: "x", trackLinks: "" })).toMatchObject({ trackLinks: true });
    expect(refusal(() => validateForm(publishSchema, { businessId: "1", messageText: "x", trackLinks: "no" })).fields).toEqual({ TrackLinks: TRACK_LINKS_INVALID });
  });

  test("a file part where text belongs: missing for the ids and text, not valid for Confirm and ScheduledFor, not text for a template", () => {
    expect(refusal(() => validateForm(publishSchema, { businessId: FILE_PART })).fields).toEqual({ BusinessId: BUSINESS_ID_REQUIRED });
    expect(refusal(() => validateForm(publishSchema, { businessId: "1", messageText: FILE_PART })).fields).toEqual({ MessageText: MESSAGE_REQUIRED });
    expect(refusal(() => validateForm(publishSchema, { businessId: "1", messageText: "x", confirm: FILE_PART })).fields).toEqual({ Confirm: CONFIRM_INVALID });
    expect(refusal(() => validateForm(publishSchema, { businessId: "1", messageText: "x", scheduledFor: FILE_PART })).fields).toEqual({ ScheduledFor: SCHEDULED_FOR_INVALID });
    expect(validateForm(publishSchema, { businessId: "1", messageText: "x", contentSid: FILE_PART, contentVariables: null })).toMatchObject({ contentSid: null, contentVariables: "" });
    expect(validateForm(scheduleUpdateSchema, { broadcastId: "4", messageText: FILE_PART })).toMatchObject({ broadcastId: 4, messageText: undefined });
    expect(validateForm(testSendSchema, { businessId: "1", messageText: "x", channel: FILE_PART, imagePath: FILE_PART })).toMatchObject({ channel: "sms", imagePath: null });
    expect(refusal(() => validateForm(testSendSchema, { businessId: "1", messageText: "x", channel: "Pigeon" })).fields).toEqual({ Channel: CHANNEL_INVALID });
  });

  test("scheduleProblem: in the future and at most 35 days ahead", () => {
    const now = Date.parse("2026-01-15T12:00:00Z");
    expect(scheduleProblem(now, now)).toBe(SCHEDULED_FOR_PAST);
    expect(scheduleProblem(now + 35 * 86_400_000, now)).toBeNull();
    expect(scheduleProblem(now + 35 * 86_400_000 + 1, now)).toBe(SCHEDULED_FOR_TOO_FAR);
  });
});
