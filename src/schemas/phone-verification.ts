// The owner's own phone is verified by a 6-digit code texted to it before any test send goes there (issue 21, item 2).
// Shared by the API and the Broadcast screen's test panel.
import * as v from "valibot";
import { NOT_AN_OBJECT } from "./auth.ts";

export const CODE_DIGITS = 6;
export const CODE_TTL_MINUTES = 10;
export const CODE_TRIES = 5;
/** A new code no sooner than this after the last one (the hourly text budget limits the rest). */
export const RESEND_AFTER_SECONDS = 60;
/** Test sends per owner per rolling 24 hours. */
export const TEST_SENDS_PER_DAY = 20;

export const CODE_FORMAT = `Enter the ${CODE_DIGITS}-digit code from the text.`;
export const codeWrong = (triesLeft: number) =>
  `That code is not right: ${triesLeft} ${triesLeft === 1 ? "try" : "tries"} left.`;
export const CODE_NONE = "Send a code to your phone first.";
export const CODE_EXPIRED = "This code has expired. Send a new code.";
export const CODE_LOCKED = "Too many wrong codes. Send a new code.";
export const PHONE_CHANGED = "Your number changed since this code was sent. Send a new code.";
export const VERIFY_FIRST = "Verify your mobile number first: send yourself a code and type it in.";
export const ALREADY_VERIFIED = "This number is already verified.";

export const verifyPhoneSchema = v.object(
  {
    code: v.pipe(
      v.string(CODE_FORMAT),
      v.transform((s) => s.replace(/\s+/g, "")),
      v.regex(new RegExp(`^\\d{${CODE_DIGITS}}$`), CODE_FORMAT),
    ),
  },
  NOT_AN_OBJECT,
);
