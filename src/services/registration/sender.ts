// Whether the SMS sender is a US number the carriers must approve first (since 2024 an unregistered US number sends
// nothing: Twilio errors 30032, 30034), and what the admin recorded about it (the senderRegistration setting).
import { parsePhoneNumberFromString } from "libphonenumber-js";
import type { RegistrationKit } from "../../schemas/registration.ts";
import type { CurrentSettings } from "../settings.ts";

export function senderStatus(s: Pick<CurrentSettings, "twilio" | "senderRegistration">): RegistrationKit["sender"] {
  const number = s.twilio?.from ?? null;
  const us = number !== null && parsePhoneNumberFromString(number)?.country === "US";
  return { number, us, registration: s.senderRegistration, needsRegistration: us && s.senderRegistration !== "approved" };
}
