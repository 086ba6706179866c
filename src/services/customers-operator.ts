// What the operator does to customers from the CLI: list a business's subscribers, import a CSV into a business,
// erase a person on request. Part of the customers service (src/services/customers.ts).
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { NotFoundError } from "../errors.ts";
import type { ImportRow } from "../lib/csv-import.ts";
import type { ImportSummary } from "../schemas/customer-import.ts";
import type { ConfirmationsService } from "./confirmations.ts";
import type { Repos } from "../repos/index.ts";
import type { SubscriberRow } from "../repos/subscriptions.ts";
import { check } from "../schemas/check.ts";
import { importConsentText } from "../schemas/consent.ts";
import { editCustomerSchema } from "../schemas/customer-admin.ts";
import { toE164 } from "../schemas/phone.ts";
import { enrollByOwner } from "./customer-enrollment.ts";
import { textableNumberProblem } from "../schemas/subscribe-number.ts";
import { e164OrThrow } from "./number-rules.ts";

/** Import: the reason a row of a person under an all-business opt-out is skipped. */
export const IMPORT_SKIPPED_STOP = "replied STOP to our messages; only they can subscribe again (by scanning the QR code or texting START)";
export const IMPORT_SKIPPED_UNSUBSCRIBED = "unsubscribed from this business; only they can subscribe again";

export type { ImportRow, ImportSummary };


export interface ImportOptions {
  /** Queue an opt-in confirmation (a welcome text) to everyone added. */
  welcome?: boolean;
  /** Stored with each consent event: the owner's browser on the Customers screen; "nearcast-cli" by default. */
  meta?: { ip: string | null; userAgent: string | null };
  onProgress?: (progress: { done: number; total: number }) => void;
}

/** Rows per import transaction: about 10 ms of checking and writing on an x64 VPS (bench/stall.ts), a few times that
 * on a Pi, so an answer of the server never waits long behind one. */
export const IMPORT_CHUNK = 50;
/** Between two chunks: long enough for another process's writer (the server, the CLI) to take its turn. */
const IMPORT_PAUSE_MS = 2;

/** The rows of one chunk that can be imported, in E.164; the others go to the summary (`seen`: numbers met so far).
 * A number the rule refuses (textableNumberProblem: allowed countries, mobile only) is an invalid row, with the public
 * page's sentence. */
function checkRows(rows: ImportRow[], seen: Map<string, number>, summary: ImportSummary, country: string, allowed: string[] | null) {
  const valid: { line: number; phone: string; contactPreference: "WhatsApp" | "SMS" }[] = [];
  for (const row of rows) {
    const result = check(editCustomerSchema, { phone: row.phone, contactPreference: row.contactPreference });
    if (!result.ok) {
      // The value shown beside the reason: the contact preference when only it was refused, else the phone.
      const value = result.errors.phone === undefined && result.errors.contactPreference !== undefined ? row.contactPreference : row.phone;
      summary.invalid.push({ line: row.line, message: Object.values(result.errors).join("; "), value });
      continue;
    }
    const phone = toE164(result.value.phone, country);
    if (!phone) {
      summary.invalid.push({ line: row.line, message: "Please enter a valid phone number", value: row.phone });
      continue;
    }
    const problem = textableNumberProblem(phone, allowed);
    if (problem) {
      summary.invalid.push({ line: row.line, message: problem, value: row.phone });
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
  return valid;
}

export interface ForgetResult {
  phone: string;
  erased: boolean;
  customerId?: number;
  subscriptions: number;
  consentEvents: number;
  /** Clicks on the person's short links and coupon redemptions by or for them (issue 25): erased with them. */
  linkClicks: number;
  couponRedemptions: number;
  businesses: string[];
}

export function customerOperatorActions({
  repos,
  clock,
  config,
  confirmations,
  allowedCountries,
}: {
  repos: Repos;
  clock: Clock;
  config: Config;
  confirmations: ConfirmationsService;
  /** The number rule's allowed countries of the moment (null: any). */
  allowedCountries: () => string[] | null;
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
     * Imports rows into one business (source 'import'), IMPORT_CHUNK rows per short transaction with a pause
     * between, so a 50,000-row file never holds the database (or, in `serve`, the server) for long: another writer
     * gets its turn between chunks (bench/stall.ts). Invalid rows are reported by line and left out. A person who
     * unsubscribed from the business, or who replied STOP to our number (any business), is not added: the row is
     * reported as skipped, with its line. A run that stops half-way can be run again: what it wrote then shows as
     * already subscribed. `onProgress` hears after each chunk how many rows are done.
     */
    async importRows(businessId: number, rows: ImportRow[], fileName: string, options: ImportOptions = {}): Promise<ImportSummary> {
      const business = anyBusiness(businessId);
      const summary: ImportSummary = { business: { id: business.id, name: business.name }, added: [], readded: [], already: [], skipped: [], invalid: [] };
      const seen = new Map<string, number>();
      const at = clock.now();
      const consentText = importConsentText(business.name, fileName);
      const allowed = allowedCountries();
      // The welcome texts: one confirmation broadcast, its deliveries (and their budget slots) written with each chunk.
      let welcome: number | undefined;
      if (options.welcome) summary.welcomed = 0;
      for (let start = 0; start < rows.length; start += IMPORT_CHUNK) {
        // The first pause too: reading the file was a turn of its own.
        await Bun.sleep(start > 0 ? IMPORT_PAUSE_MS : 0);
        const valid = checkRows(rows.slice(start, start + IMPORT_CHUNK), seen, summary, config.defaultCountry, allowed);
        repos.transaction(() => {
          const joined = new Map<number, string>();
          for (const row of valid) {
            const { customerId, outcome } = enrollByOwner(repos, row.phone, row.contactPreference, {
              businessId: business.id,
              source: "import",
              consentText,
              meta: options.meta ?? { ip: null, userAgent: "nearcast-cli" },
              at,
            }, { skipStopped: true });
            const item = { line: row.line, phone: row.phone };
            if (outcome === "subscribed" || outcome === "resubscribed") joined.set(customerId, row.phone);
            if (outcome === "subscribed") summary.added.push(item);
            else if (outcome === "resubscribed") summary.readded.push(item);
            else if (outcome === "already") summary.already.push(item);
            else if (outcome === "stopped") summary.skipped.push({ ...item, reason: IMPORT_SKIPPED_STOP });
            else summary.skipped.push({ ...item, reason: IMPORT_SKIPPED_UNSUBSCRIBED });
          }
          if (options.welcome && joined.size > 0) {
            const queued = confirmations.queue({ businessId: business.id, customerIds: [...joined.keys()], origin: "import", into: welcome, phones: joined });
            welcome ??= queued?.broadcastId;
            summary.welcomed! += queued?.total ?? 0;
          }
        });
        options.onProgress?.({ done: Math.min(start + IMPORT_CHUNK, rows.length), total: rows.length });
      }
      // In file order (a duplicate is found while checking, before the rows around it are written).
      summary.skipped.sort((a, b) => a.line - b.line);
      summary.invalid.sort((a, b) => a.line - b.line);
      return summary;
    },

    /**
     * Erases a person completely (the FAQ's promise that a number can be deleted on request): the customer
     * row, every subscription and every consent event, in one transaction. Their deliveries go with the row, and with
     * them the clicks on their links and their coupons' redemptions (foreign keys, ON DELETE CASCADE).
     */
    forget(rawPhone: string): ForgetResult {
      const phone = e164OrThrow(rawPhone, config.defaultCountry);
      return repos.transaction(() => {
        const customer = repos.customers.findByPhone(phone);
        if (!customer) return { phone, erased: false, subscriptions: 0, consentEvents: 0, linkClicks: 0, couponRedemptions: 0, businesses: [] };
        const subs = repos.subscriptions.listByCustomer(customer.id);
        const events = repos.consentEvents.countByCustomer(customer.id);
        const engagement = repos.personEngagement.countByCustomer(customer.id);
        repos.customers.delete(customer.id);
        return {
          phone,
          erased: true,
          customerId: customer.id,
          subscriptions: subs.length,
          consentEvents: events,
          ...engagement,
          businesses: subs.map((s) => s.businessName),
        };
      });
    },
  };
}
