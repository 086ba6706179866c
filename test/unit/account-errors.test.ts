// Issue 23 item 2: which Twilio answers are about the account or the sender (pause the channel) and which are about
// one recipient (settle that recipient), in the one place that names them (src/messaging/account-errors.ts).
import { describe, expect, test } from "bun:test";
import { ACCOUNT_PROBLEMS, accountProblemOf, noSenderProblem } from "../../src/messaging/account-errors.ts";

describe("account-wide answers", () => {
  test("HTTP 401 is the credentials whatever code came with it (20003, or none)", () => {
    expect(accountProblemOf(401, 20003)).toMatchObject({ code: 20003, reason: expect.stringContaining("refused the credentials") });
    expect(accountProblemOf(401, null)).toMatchObject({ code: 20003, fix: expect.stringContaining("auth token") });
  });

  test.each([
    [21606, "cannot send"],
    [21659, "not a Twilio number"],
    [30034, "A2P 10DLC"],
    [30032, "toll-free"],
  ])("%i is the sender's problem, with a fix", (code, words) => {
    const p = accountProblemOf(400, code);
    expect(p).not.toBeNull();
    expect(p!.code).toBe(code);
    expect(p!.reason).toContain(words);
    expect(p!.fix.length).toBeGreaterThan(20);
    // A status callback carries the code with no HTTP status.
    expect(accountProblemOf(null, code)).toEqual(p);
  });

  test("no sender for a channel: nothing reached Twilio (code null); the fix names the setting", () => {
    expect(noSenderProblem("sms")).toMatchObject({ code: null, reason: "no SMS sender is set", fix: expect.stringContaining("TWILIO_FROM") });
    expect(noSenderProblem("whatsapp")).toMatchObject({ code: null, reason: "no WhatsApp sender is set", fix: expect.stringContaining("TWILIO_WHATSAPP_FROM") });
  });
});

describe("answers about one recipient are not account problems", () => {
  test.each([
    [400, 21610], // replied STOP
    [400, 21211], // invalid To
    [400, 21614], // not a mobile number
    [400, 63016], // outside the WhatsApp window
    [400, 30006], // landline
    [400, 131050], // WhatsApp marketing turned off
    [429, 20429], // too many requests: the pace, not the account
    [500, 20500], // Twilio's own trouble: uncertain, reconciled
  ])("HTTP %i with %i", (status, code) => {
    expect(accountProblemOf(status, code)).toBeNull();
  });

  test("no code at all, or null", () => {
    expect(accountProblemOf(400, null)).toBeNull();
    expect(accountProblemOf(null, null)).toBeNull();
  });

  test("the table names exactly the issue's codes", () => {
    expect(Object.keys(ACCOUNT_PROBLEMS).map(Number).sort()).toEqual([20003, 21606, 21659, 30032, 30034]);
  });
});
