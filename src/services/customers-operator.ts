// What the operator does to customers from the CLI: list a business's subscribers, import a CSV into a business,
// erase a person on request. Part of the customers service (src/services/customers.ts).
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { NotFoundError } from "../errors.ts";
import type { ConfirmationsService } from "./confirmations.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscriberRow } from "../repos/subscriptions.ts";
import { check } from "../schemas/check.ts";
import { importConsentText } from "../schemas/consent.ts";
import { editCustomerSchema } from "../schemas/customer-admin.ts";
import { toE164 } from "../schemas/phone.ts";
import { enrollByOwner } from "./customer-enrollment.ts";
import { e164OrThrow } from "./subscriptions.ts";

/** Import: the reason a row of a person under an all-business opt-out is skipped. */
export const IMPORT_SKIPPED_STOP = "replied STOP to our messages; only they can subscribe again (by scanning the QR code or texting START)";
export const IMPORT_SKIPPED_UNSUBSCRIBED = "unsubscribed from this business; only they can subscribe again";

export interface ImportRow {
  /** 1-based line number in the file, for messages. */
  line: number;
  phone: string;
  contactPreference: string;
}

export interface ImportSummary {
  business: { id: number; name: string };
  added: { line: number; phone: string }[];
  readded: { line: number; phone: string }[];
  already: { line: number; phone: string }[];
  skipped: { line: number; phone: string; reason: string }[];
  invalid: { line: number; message: string }[];
  /** With "send a welcome text": how many confirmations were queued (one Confirmation broadcast, paced). */
  welcomed?: number;
}

export interface ForgetResult {
  phone: string;
  erased: boolean;
  customerId?: number;
  subscriptions: number;
  consentEvents: number;
  businesses: string[];
}

export function customerOperatorActions({
  repos,
  clock,
  config,
  confirmations,
}: {
  repos: Repos;
  clock: Clock;
  config: Config;
  confirmations: ConfirmationsService;
}) {
  function anyBusiness(businessId: number) {
    const business = repos.businesses.findById(businessId);
    if (!business) throw new NotFoundError(`No business has the id ${businessId}.`);
    return business;
  }

  return {
    /** The subscribers of one business (not removed), oldest first. */
    listForBusiness(businessId: number): { business: { id: number; name: string }; subscribers: SubscriberRow[] } {
      const business = anyBusiness(businessId);
      return { business: { id: business.id, name: business.name }, subscribers: repos.subscriptions.listSubscribers(business.id) };
    },

    /**
     * Imports rows into one business (source 'import'). Invalid rows are reported by line and left out; the
     * valid ones are written in ONE transaction, so an unexpected failure leaves nothing half-imported. A person
     * who unsubscribed from the business, or who replied STOP to our number (any business), is not added: the row
     * is reported as skipped, with its line, and nothing of it is written.
     */
    importRows(businessId: number, rows: ImportRow[], fileName: string, options: { welcome?: boolean } = {}): ImportSummary {
      const business = anyBusiness(businessId);
      const summary: ImportSummary = { business: { id: business.id, name: business.name }, added: [], readded: [], already: [], skipped: [], invalid: [] };
      const valid: { line: number; phone: string; contactPreference: "WhatsApp" | "SMS" }[] = [];
      const seen = new Map<string, number>();
      for (const row of rows) {
        const result = check(editCustomerSchema, { phone: row.phone, contactPreference: row.contactPreference });
        if (!result.ok) {
          summary.invalid.push({ line: row.line, message: Object.values(result.errors).join("; ") });
          continue;
        }
        const phone = toE164(result.value.phone, config.defaultCountry);
        if (!phone) {
          summary.invalid.push({ line: row.line, message: "Please enter a valid phone number" });
          continue;
        }
        const first = seen.get(phone);
        if (first !== undefined) {
          summary.skipped.push({ line: row.line, phone, reason: `same number as line ${first}` });
          continue;
        }
        seen.set(phone, row.line);
        valid.push({ line: row.line, phone, contactPreference: result.value.contactPreference });
      }
      const at = clock.now();
      const consentText = importConsentText(business.name, fileName);
      repos.transaction(() => {
        const joined: number[] = [];
        for (const row of valid) {
          const { customerId, outcome } = enrollByOwner(repos, row.phone, row.contactPreference, {
            businessId: business.id,
            source: "import",
            consentText,
            meta: { ip: null, userAgent: "nearcast-cli" },
            at,
          }, { skipStopped: true });
          const item = { line: row.line, phone: row.phone };
          if (outcome === "subscribed" || outcome === "resubscribed") joined.push(customerId);
          if (outcome === "subscribed") summary.added.push(item);
          else if (outcome === "resubscribed") summary.readded.push(item);
          else if (outcome === "already") summary.already.push(item);
          else if (outcome === "stopped") summary.skipped.push({ ...item, reason: IMPORT_SKIPPED_STOP });
          else summary.skipped.push({ ...item, reason: IMPORT_SKIPPED_UNSUBSCRIBED });
        }
        // One Confirmation broadcast for everyone the import added: the dispatcher paces it like any other.
        if (options.welcome) summary.welcomed = confirmations.queue({ businessId: business.id, customerIds: joined, origin: "import" })?.total ?? 0;
      });
      return summary;
    },

    /**
     * Erases a person completely (the FAQ's promise that a number can be deleted on request): the customer
     * row, every subscription and every consent event, in one transaction.
     */
    forget(rawPhone: string): ForgetResult {
      const phone = e164OrThrow(rawPhone, config.defaultCountry);
      return repos.transaction(() => {
        const customer = repos.customers.findByPhone(phone);
        if (!customer) return { phone, erased: false, subscriptions: 0, consentEvents: 0, businesses: [] };
        const subs = repos.subscriptions.listByCustomer(customer.id);
        const events = repos.consentEvents.countByCustomer(customer.id);
        repos.customers.delete(customer.id);
        return {
          phone,
          erased: true,
          customerId: customer.id,
          subscriptions: subs.length,
          consentEvents: events,
          businesses: subs.map((s) => s.businessName),
        };
      });
    },
  };
}
