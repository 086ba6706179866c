import type { Repos } from "../repos/index.ts";
import type { ContactPreference } from "../schemas/customers.ts";
import { type EnrollOutcome, type Enrollment, enroll } from "./subscriptions.ts";

/**
 * An owner (by hand, or the operator by import) enrolls the person with this E.164 phone, created if new. Call
 * inside a transaction. An existing person's contact preference is updated unless they cannot be enrolled
 * ('stopped', 'opted-out'): then nothing at all is written.
 */
export function enrollByOwner(
  repos: Repos,
  phone: string,
  contactPreference: ContactPreference,
  e: Omit<Enrollment, "customerId" | "byThePerson">,
): { customerId: number; outcome: EnrollOutcome } {
  const existing = repos.customers.findByPhone(phone);
  const customerId = existing?.id ?? repos.customers.insert({ phone, contactPreference, createdAt: e.at }).id;
  const outcome = enroll(repos, { ...e, customerId, byThePerson: false });
  if (existing && existing.contactPreference !== contactPreference && outcome !== "stopped" && outcome !== "opted-out") {
    repos.customers.setContactPreference(existing.id, contactPreference);
  }
  return { customerId, outcome };
}
