import type { Repos } from "../repos/index.ts";
import type { ContactPreference } from "../schemas/customers.ts";
import { type EnrollOutcome, type Enrollment, enroll } from "./subscriptions.ts";

/**
 * An owner (by hand, or the operator by import) enrolls the person with this E.164 phone, created if new. Call
 * inside a transaction. The channel given becomes this business's subscription's (no other business's changes);
 * a person who unsubscribed from this business ('opted-out') is left as they are.
 *
 * skipStopped (the operator's import only): a person under an all-business opt-out is not enrolled ('stopped',
 * nothing written). The operator sees every business, so this tells them nothing about a stranger; an owner's
 * manual add does not check it (the STOP stays in force through the broadcast enqueue, and the owner's answer is
 * the same as for any number).
 */
export function enrollByOwner(
  repos: Repos,
  phone: string,
  contactPreference: ContactPreference,
  e: Omit<Enrollment, "customerId" | "byThePerson" | "contactPreference">,
  options: { skipStopped?: boolean } = {},
): { customerId: number; outcome: EnrollOutcome | "stopped" } {
  const existing = repos.customers.findByPhone(phone);
  if (existing && options.skipStopped && repos.consentEvents.optedOut(existing.id)) return { customerId: existing.id, outcome: "stopped" };
  const customerId = existing?.id ?? repos.customers.insert({ phone, createdAt: e.at }).id;
  return { customerId, outcome: enroll(repos, { ...e, customerId, contactPreference, byThePerson: false }) };
}
