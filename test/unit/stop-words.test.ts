import { describe, expect, test } from "bun:test";
import { asksToStop, normaliseReply } from "../../src/lib/stop-words.ts";
import { MUST_NOT_OPT_OUT, MUST_OPT_OUT } from "../helpers/stop-phrases.ts";

// Replies that ask to stop in plain words opt the person out like STOP (issue 24 item 3); others never do.

describe("replies that ask to stop in plain words", () => {
  test("the table has at least 25 phrases each way", () => {
    expect(MUST_OPT_OUT.length).toBeGreaterThanOrEqual(25);
    expect(MUST_NOT_OPT_OUT.length).toBeGreaterThanOrEqual(25);
  });

  test.each(MUST_OPT_OUT)("opts out: %p", (reply) => {
    expect(asksToStop(reply)).toBe(true);
  });

  test.each(MUST_NOT_OPT_OUT)("does not opt out: %p", (reply) => {
    expect(asksToStop(reply)).toBe(false);
  });

  test("anything that is not text never opts out", () => {
    for (const body of [undefined, null, 42, ["stop"], { Body: "stop" }]) expect(asksToStop(body)).toBe(false);
  });

  test("normalising: case, accents, curly apostrophes, punctuation and emoji", () => {
    expect(normaliseReply("  NO MÁS   Mensajes!!! 🙅‍♀️ ")).toBe("no mas mensajes");
    expect(normaliseReply("Don’t TEXT me...")).toBe("dont text me");
  });
});
