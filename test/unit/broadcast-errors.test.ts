// The broadcast screen's toasts (spec sections 7 and 8): pure mapping from an error or a 200 answer.
import { describe, expect, test } from "bun:test";
import { bodyErrorText, broadcastErrorToast, publishOutcome, retryErrorToast } from "../../web/features/broadcast/api/broadcast-errors.ts";
import { ApiError } from "../../web/shared/api/client.ts";

const CONNECTION = "Unable to connect to server. Please check your internet connection.";
const err = (status: number, body: unknown = null) => new ApiError(status, "whatever the client derived", body);

describe("broadcastErrorToast", () => {
  test.each([
    ["400 with the server's error", err(400, { error: "Message text is required", code: "validation" }), "Invalid Request", "Message text is required"],
    ["400 with a plain-text body", err(400, "Business ID is required."), "Invalid Request", "Business ID is required."],
    ["400 without a text", err(400, null), "Invalid Request", "Invalid request. Please check your input."],
    ["400 with an empty error", err(400, { error: "  " }), "Invalid Request", "Invalid request. Please check your input."],
    ["401", err(401, { error: "Authentication required.", code: "unauthorized" }), "Session Expired", "Your session has expired. Please log in again."],
    ["403 (not the creator)", err(403, { error: "Forbidden", code: "forbidden" }), "Permission Denied", "You can only broadcast messages for businesses you created."],
    ["0 (network)", err(0, null), "Connection Error", CONNECTION],
    ["500 with a nested error text", err(500, { error: "Something went wrong on our side. Please try again.", code: "internal" }), "Broadcast Failed", "Something went wrong on our side. Please try again."],
    ["413 with a nested error text", err(413, { error: "Request body is too large.", code: "payload_too_large" }), "Broadcast Failed", "Request body is too large."],
    ["404 with a nested error text", err(404, { error: "Business not found.", code: "not_found" }), "Broadcast Failed", "Business not found."],
    ["502 with an HTML page", err(502, "<html><body>Bad gateway</body></html>"), "Broadcast Failed", "Failed to send broadcast message. Please try again."],
    ["500 without a body", err(500, null), "Broadcast Failed", "Failed to send broadcast message. Please try again."],
    ["500 with only a message field (not the nested error)", err(500, { message: "hm" }), "Broadcast Failed", "Failed to send broadcast message. Please try again."],
    ["not an ApiError", new TypeError("x is undefined"), "Broadcast Failed", "Failed to send broadcast message. Please try again."],
  ])("%s", (_name, error, title, message) => {
    expect(broadcastErrorToast(error)).toEqual({ title, message });
  });
});

describe("publishOutcome (200 answers)", () => {
  test("a message is a success titled 'Message Sent!' with the server's message", () => {
    expect(publishOutcome({ message: "Broadcast queued for 48 subscribers.", broadcastId: 3, recipients: 48 } as never)).toEqual({
      kind: "sent",
      toast: { title: "Message Sent!", message: "Broadcast queued for 48 subscribers." },
    });
  });

  test("a warning is a warning titled 'No Subscribers Found' with the warning text", () => {
    expect(publishOutcome({ warning: "No active subscribers found for this business." })).toEqual({
      kind: "warning",
      toast: { title: "No Subscribers Found", message: "No active subscribers found for this business." },
    });
  });

  test("a warning alone is 'No Subscribers Found'; with a message it was queued (its warning: WhatsApp recipients skipped)", () => {
    expect(publishOutcome({ warning: "None." }).kind).toBe("warning");
    expect(publishOutcome({ warning: "2 WhatsApp recipients will be skipped.", message: "Sent" })).toEqual({ kind: "sent", toast: { title: "Message Sent!", message: "Sent" } });
  });

  test("no message: the error field, else 'Failed to send broadcast message.'", () => {
    expect(publishOutcome({ error: "Twilio is not configured." })).toEqual({
      kind: "failed",
      toast: { title: "Broadcast Failed", message: "Twilio is not configured." },
    });
    expect(publishOutcome({})).toEqual({ kind: "failed", toast: { title: "Broadcast Failed", message: "Failed to send broadcast message." } });
    expect(publishOutcome(null)).toEqual({ kind: "failed", toast: { title: "Broadcast Failed", message: "Failed to send broadcast message." } });
    expect(publishOutcome({ message: "" }).kind).toBe("failed");
  });
});

describe("retryErrorToast", () => {
  test("server text, connection, session, permission, default", () => {
    expect(retryErrorToast(err(409, { error: "Nothing to retry.", code: "conflict" }))).toEqual({ title: "Retry Failed", message: "Nothing to retry." });
    expect(retryErrorToast(err(0))).toEqual({ title: "Connection Error", message: CONNECTION });
    expect(retryErrorToast(err(401)).title).toBe("Session Expired");
    expect(retryErrorToast(err(403)).title).toBe("Permission Denied");
    expect(retryErrorToast(new Error("boom"))).toEqual({ title: "Retry Failed", message: "Failed to retry the failed messages. Please try again." });
  });
});

describe("bodyErrorText", () => {
  test("reads body.error or a short plain body, nothing else", () => {
    expect(bodyErrorText({ error: " Nope. " })).toBe("Nope.");
    expect(bodyErrorText({ error: 42 })).toBeUndefined();
    expect(bodyErrorText("  short text ")).toBe("short text");
    expect(bodyErrorText("x".repeat(301))).toBeUndefined();
    expect(bodyErrorText(null)).toBeUndefined();
  });
});
