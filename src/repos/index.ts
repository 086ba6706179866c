import { type Db, withoutBusyWait } from "../db/client.ts";
import { broadcastLinksRepo } from "./broadcast-links.ts";
import { broadcastsRepo } from "./broadcasts.ts";
import { businessTypesRepo } from "./business-types.ts";
import { broadcastResults } from "./sql/broadcast-results.ts";
import { businessDashboard } from "./sql/business-dashboard.ts";
import { businessesRepo } from "./businesses.ts";
import { confirmationsRepo } from "./sql/confirmations.ts";
import { consentEventsRepo } from "./consent-events.ts";
import { couponsRepo } from "./coupons.ts";
import { customerInboundRepo } from "./customer-inbound.ts";
import { customerPagesRepo } from "./sql/customer-pages.ts";
import { customersRepo } from "./customers.ts";
import { deliveriesRepo } from "./sql/deliveries.ts";
import { deliveryHistoryRepo } from "./delivery-history.ts";
import { inboundMessagesRepo } from "./inbound-messages.ts";
import { inboxRepo } from "./sql/inbox.ts";
import { inboxRepliesRepo } from "./sql/inbox-replies.ts";
import { passwordResetsRepo } from "./password-resets.ts";
import { personEngagementRepo } from "./person-engagement.ts";
import { shortLinksRepo } from "./sql/short-links.ts";
import { subscriptionLinksRepo } from "./subscription-links.ts";
import { pausedDeliveriesRepo } from "./sql/paused-deliveries.ts";
import { phoneVerificationsRepo } from "./phone-verifications.ts";
import { testSendsRepo } from "./test-sends.ts";
import { sessionsRepo } from "./sessions.ts";
import { settingsRepo } from "./settings.ts";
import { subscriptionsRepo } from "./subscriptions.ts";
import { textBudgetRepo } from "./sql/text-budget.ts";
import { durableTransactionRunner, transactionRunner } from "./transaction.ts";
import { uploadsRepo } from "./uploads.ts";
import { usersRepo } from "./users.ts";

export function createRepos(db: Db) {
  return {
    /** Runs fn in one write transaction (BEGIN IMMEDIATE; a savepoint inside one already open). fn must be synchronous. */
    transaction: transactionRunner(db),
    /** The same, fsynced before it returns (synchronous=FULL): for writes the outside world acts on at once. */
    durableTransaction: durableTransactionRunner(db),
    /** A trivial query, for the health check: throws when the database cannot answer. */
    ping(): void {
      db.$client.query("SELECT 1").get();
    },
    /** `store` with each method run with SQLite's busy wait off (src/db/client.ts withoutBusyWait): the dispatcher's. */
    withoutBusyWait: <T extends object>(store: T): T => withoutBusyWait(db.$client, store),
    users: usersRepo(db),
    sessions: sessionsRepo(db),
    passwordResets: passwordResetsRepo(db),
    subscriptionLinks: subscriptionLinksRepo(db),
    phoneVerifications: phoneVerificationsRepo(db),
    testSends: testSendsRepo(db),
    businessTypes: businessTypesRepo(db),
    businesses: businessesRepo(db),
    customers: customersRepo(db),
    customerPages: customerPagesRepo(db),
    subscriptions: subscriptionsRepo(db),
    consentEvents: consentEventsRepo(db),
    uploads: uploadsRepo(db),
    broadcasts: broadcastsRepo(db),
    deliveries: deliveriesRepo(db),
    deliveryHistory: deliveryHistoryRepo(db),
    pausedDeliveries: pausedDeliveriesRepo(db),
    settings: settingsRepo(db),
    inboundMessages: inboundMessagesRepo(db),
    customerInbound: customerInboundRepo(db),
    confirmations: confirmationsRepo(db),
    textBudget: textBudgetRepo(db),
    inbox: inboxRepo(db),
    inboxReplies: inboxRepliesRepo(db),
    personEngagement: personEngagementRepo(db),
    broadcastResults: broadcastResults(db),
    businessDashboard: businessDashboard(db),
    coupons: couponsRepo(db),
    broadcastLinks: broadcastLinksRepo(db),
    shortLinks: shortLinksRepo(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
