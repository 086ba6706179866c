import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// All tables. Times are stored as integer milliseconds since the epoch (UTC).
const createdAt = () =>
  integer("created_at", { mode: "timestamp_ms" })
    .notNull()
    .default(sql`(cast(unixepoch('subsec') * 1000 as integer))`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["admin", "owner"] }).notNull().default("owner"),
    // The account holder's own mobile (E.164), where "Send a test to my phone" goes; NULL: not given.
    phone: text("phone"),
    // When that phone answered the 6-digit code texted to it (phone_verifications); NULL: not verified, and no test
    // send goes there. Cleared whenever the phone changes.
    phoneVerifiedAt: integer("phone_verified_at", { mode: "timestamp_ms" }),
    // Owner sign-up (setting ownerSignup): 'pending' owners wait for the admin's approval and nothing is texted for
    // them; 'refused' ones cannot sign in (their data stays until the admin deletes it). Accounts that existed
    // before this column count as approved.
    status: text("status", { enum: ["approved", "pending", "refused"] }).notNull().default("approved"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(t.email), index("users_status_idx").on(t.status)],
);

// The one live code texted to an account holder's phone to verify it: hashed, 5 tries, 10 minutes.
export const phoneVerifications = sqliteTable("phone_verifications", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  phone: text("phone").notNull(),
  codeHash: text("code_hash").notNull(),
  attempts: integer("attempts").notNull().default(0),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  createdAt: createdAt(),
});

// One row per text nobody broadcast (opt-in confirmations, welcome texts, test sends, phone-verification codes):
// slotAt is when it may go under the hourly budgets (per owner and per install) and, for confirmations, the
// per-number cap of a rolling 24 h. Slots are assigned so that no rolling window ever holds more than its budget.
export const textBudget = sqliteTable(
  "text_budget",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["confirmation", "test", "verification", "reply"] }).notNull(),
    // The recipient (E.164); the per-number confirmation cap looks back by it.
    phone: text("phone").notNull(),
    slotAt: integer("slot_at", { mode: "timestamp_ms" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("text_budget_owner_slot_idx").on(t.ownerId, t.slotAt),
    index("text_budget_slot_idx").on(t.slotAt),
    index("text_budget_phone_slot_idx").on(t.phone, t.slotAt).where(sql`kind = 'confirmation'`),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    revokedAt: integer("revoked_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("sessions_token_hash_unique").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    usedAt: integer("used_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("password_resets_token_hash_unique").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

export const businessTypes = sqliteTable(
  "business_types",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("business_types_name_unique").on(sql`lower(${t.name})`),
    // The admin's list pages in this order (ListBusinessTypes).
    index("business_types_name_nocase_idx").on(sql`${t.name} collate nocase`, t.id),
  ],
);

export const businesses = sqliteTable(
  "businesses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    businessTypeId: integer("business_type_id")
      .notNull()
      .references(() => businessTypes.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    address: text("address").notNull(),
    phone: text("phone").notNull(),
    logoImagePath: text("logo_image_path"),
    sampleImagePath: text("sample_image_path"),
    sampleProductText: text("sample_product_text").notNull(),
    qrMessage: text("qr_message"),
    successMessage: text("success_message"),
    // NULL: never set (a business from before this column); "": cleared by its owner. See posterOfferDeal.
    posterOffer: text("poster_offer"),
    // How often the business says it sends promotions ("up to N messages per week"): shown where consent is given
    // and in the opt-in confirmation (CTIA asks for the frequency).
    messagesPerWeek: integer("messages_per_week").notNull().default(4),
    // IANA zone for quiet hours when a customer's number does not tell theirs; NULL: the server's zone.
    timeZone: text("time_zone"),
    // Double opt-in: a new subscription stays 'unconfirmed' until the person replies YES to the confirmation.
    doubleOptIn: integer("double_opt_in", { mode: "boolean" }).notNull().default(false),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    // The word a person texts to the sender number to join (issue 24); NULL: none. Stored upper-case.
    keyword: text("keyword"),
    createdAt: createdAt(),
  },
  (t) => [
    // One sender number per install today, so a keyword is unique across the install, in any case.
    uniqueIndex("businesses_keyword_unique").on(sql`upper(${t.keyword})`),
    index("businesses_owner_idx").on(t.ownerId),
    index("businesses_type_idx").on(t.businessTypeId),
    // The public list pages by name (ListBusinesses); only active businesses are in it.
    index("businesses_public_name_idx").on(t.name, t.id).where(sql`is_active = 1`),
  ],
);

// One row per person, keyed by E.164 phone; shared by every business they subscribe to. It holds nothing a business
// chooses: the channel lives on each subscription (migration 0008 dropped the shared one).
export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    phone: text("phone").notNull(),
    // Meta error 131050: the person turned off marketing messages on WhatsApp. No WhatsApp promotion goes to them
    // until they write to us on WhatsApp again.
    whatsappMarketingStoppedAt: integer("whatsapp_marketing_stopped_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("customers_phone_unique").on(t.phone)],
);

// The current state of one customer's subscription to one business. History lives in consent_events.
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    // 'pending': the owner had removed the person, who then asked to subscribe again on the public page; the owner
    // accepts (active) or declines (removed). No broadcast goes to it. TS-only enum (no CHECK in the SQL).
    // 'unconfirmed': the business asks for double opt-in and the person has not replied YES to the confirmation yet;
    // no promotion goes to it either.
    status: text("status", { enum: ["active", "unsubscribed", "removed", "pending", "unconfirmed"] }).notNull().default("active"),
    // The channel this business reaches the person on: each subscription has its own, so nobody but this business
    // (its owner, or the person subscribing to it) changes how it reaches them.
    contactPreference: text("contact_preference", { enum: ["WhatsApp", "SMS"] }).notNull().default("SMS"),
    source: text("source", { enum: ["qr", "list", "manual", "import", "keyword"] }).notNull(),
    consentAt: integer("consent_at", { mode: "timestamp_ms" }).notNull(),
    consentText: text("consent_text").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    unsubscribedAt: integer("unsubscribed_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("subscriptions_customer_business_unique").on(t.customerId, t.businessId),
    index("subscriptions_business_status_idx").on(t.businessId, t.status),
    index("subscriptions_business_created_idx").on(t.businessId, t.createdAt), // new subscribers by day (0024)
  ],
);

// Append-only record of consent given and withdrawn (subscribe, STOP, START, removal by the owner).
export const consentEvents = sqliteTable(
  "consent_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    // Null for events that apply to every business (a STOP to the shared sender number).
    businessId: integer("business_id").references(() => businesses.id, { onDelete: "cascade" }),
    // 'requested': a person asked (public subscribe) to rejoin a business whose owner had removed them; the consent
    // they gave is kept here until the owner accepts.
    kind: text("kind", { enum: ["subscribed", "resubscribed", "unsubscribed", "removed", "requested"] }).notNull(),
    source: text("source").notNull(),
    consentText: text("consent_text"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    index("consent_events_customer_idx").on(t.customerId),
    index("consent_events_business_idx").on(t.businessId),
    index("consent_events_business_kind_at_idx").on(t.businessId, t.kind, t.at), // opt-outs by time, NULL = all (0024)
    // Only the all-business events (STOP / START / 21610): "is this person under an opt-out" is one seek here, also
    // once per recipient inside the broadcast enqueue (src/repos/consent-events.ts underOptOutSql).
    index("consent_events_all_business_idx").on(t.customerId).where(sql`business_id IS NULL`),
  ],
);

// Every stored image, so a delete or a reference can be checked against its owner.
export const uploads = sqliteTable(
  "uploads",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    kind: text("kind", { enum: ["logo", "sample", "broadcast"] }).notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("uploads_file_name_unique").on(t.fileName), index("uploads_owner_idx").on(t.ownerId)],
);

// One press of Send Broadcast, or one opt-in confirmation (kind 'confirmation': to one new subscriber, or to an
// import's people). Its deliveries are written in the same transaction (the outbox).
export const broadcasts = sqliteTable(
  "broadcasts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    // Promotions are marketing (quiet hours, the daily cap, the owner's history); confirmations are exempt from both.
    kind: text("kind", { enum: ["promotion", "confirmation", "reply"] }).notNull().default("promotion"),
    // Confirmations only: how the subscription came (the public page, a START, the owner, an import). The public
    // page's are capped per hour (SMS pumping).
    // Replies (issue 24): 'recent' when the person wrote within the hour (exempt from quiet hours).
    origin: text("origin", { enum: ["public", "keyword", "owner", "import", "recent"] }),
    messageText: text("message_text").notNull(),
    // A WhatsApp template (Twilio Content API) for the WhatsApp deliveries: its sid (HX…) and variables (JSON object
    // text, e.g. {"1":"Fresh bread"}). NULL: no template; WhatsApp then goes free-form only inside the 24-hour window.
    contentSid: text("content_sid"),
    contentVariables: text("content_variables"),
    // An upload's public path (/uploads/<name>), sent as MediaUrl.
    imagePath: text("image_path"),
    total: integer("total").notNull(),
    createdAt: createdAt(),
    completedAt: integer("completed_at", { mode: "timestamp_ms" }),
    // A scheduled broadcast: its recipients are decided (its deliveries written) when it starts, at scheduledFor.
    // startedAt is null until then; an immediate broadcast starts when it is created.
    scheduledFor: integer("scheduled_for", { mode: "timestamp_ms" }),
    startedAt: integer("started_at", { mode: "timestamp_ms" }),
    // While its deliveries are being written, a chunk per transaction (so a 100,000-recipient broadcast never holds
    // the server for long): the last subscriptions.id written so far (0 before the first chunk). NULL once every
    // recipient has a delivery. A crash leaves it set, and the dispatcher goes on from it.
    enqueuedThrough: integer("enqueued_through"),
    cancelledAt: integer("cancelled_at", { mode: "timestamp_ms" }),
    // Issue 25 (migrations/0023, the tables in engagement-schema.ts): the text's URLs go out as short links, one per
    // delivery; an offer is one shared code, or a unique code per person at {code}, valid to the end of its day.
    trackLinks: integer("track_links", { mode: "boolean" }).notNull().default(false),
    couponCode: text("coupon_code"),
    uniqueCoupons: integer("unique_coupons", { mode: "boolean" }).notNull().default(false),
    couponExpiresAt: integer("coupon_expires_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    // A business's broadcasts of one kind, newest first: the history pages down it (ListBroadcasts) without
    // stepping over the opt-in confirmations, one per new subscriber.
    index("broadcasts_business_kind_created_idx").on(t.businessId, t.kind, t.createdAt, t.id),
    // One confirmation per number per business per 24 h, and the public page's hourly cap, look back by time.
    index("broadcasts_confirmation_idx").on(t.createdAt).where(sql`kind = 'confirmation'`),
    // The scheduler's queue: only broadcasts waiting for their time are in it.
    index("broadcasts_scheduled_idx").on(t.scheduledFor).where(sql`started_at IS NULL AND cancelled_at IS NULL`),
    // The broadcasts whose deliveries are still being written (the dispatcher goes on with them).
    index("broadcasts_enqueuing_idx").on(t.id).where(sql`enqueued_through IS NOT NULL`),
    // The unfinished ones by kind and business: the claim finds due confirmations through it (they go first), and a
    // broadcast's place among the shops sending at the same time is a count over it (migrations/0019).
    index("broadcasts_unfinished_idx").on(t.kind, t.businessId).where(sql`completed_at IS NULL`),
  ],
);

// One message to one subscriber. Status moves Queued -> Sending -> Sent -> Delivered | Failed; Uncertain marks a
// send whose answer was lost (reconciled, never blindly resent); Skipped, a recipient who opted out meanwhile.
export const deliveries = sqliteTable(
  "deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["SMS", "WhatsApp"] }).notNull(),
    toPhone: text("to_phone").notNull(),
    status: text("status", { enum: ["Queued", "Sending", "Uncertain", "Sent", "Delivered", "Failed", "Skipped", "Expired", "Cancelled"] })
      .notNull()
      .default("Queued"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at", { mode: "timestamp_ms" }).notNull(),
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }),
    sentAt: integer("sent_at", { mode: "timestamp_ms" }),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
    providerId: text("provider_id"),
    providerStatus: text("provider_status"),
    errorCode: integer("error_code"),
    errorMessage: text("error_message"),
    // Why a Queued delivery waits past its time (quiet hours, the daily limit); next_attempt_at is when it may go.
    // owner_pending: the business's owner awaits the admin's approval (next_attempt_at far ahead until then);
    // text_budget: a text nobody broadcast waiting for its slot under the hourly budgets (confirmation_cap before 0014).
    deferredReason: text("deferred_reason", { enum: ["quiet_hours", "daily_limit", "confirmation_cap", "owner_pending", "text_budget", "channel_paused"] }),
    // Sent without a status callback (no public URL Twilio can reach): when to look its outcome up next (0016).
    statusCheckAt: integer("status_check_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("deliveries_broadcast_customer_unique").on(t.broadcastId, t.customerId),
    // The queue: only rows waiting for a (re)try or a check are in these two, so a send moves no entry of theirs
    // but the claim's. No index on provider_id: sids are random, and every send would write a random index page
    // (most of the dispatcher's disk work); a status callback finds its delivery by the id in its URL instead.
    index("deliveries_queued_due_idx").on(t.nextAttemptAt).where(sql`status = 'Queued'`),
    // The fair claim's turns: the next business with a Queued delivery, then its due ones in order (migrations/0019).
    index("deliveries_queued_business_due_idx").on(t.businessId, t.nextAttemptAt).where(sql`status = 'Queued'`),
    index("deliveries_uncertain_due_idx").on(t.nextAttemptAt).where(sql`status = 'Uncertain'`),
    index("deliveries_status_check_idx").on(t.statusCheckAt).where(sql`status_check_at IS NOT NULL`),
    index("deliveries_broadcast_status_idx").on(t.broadcastId, t.status, t.channel), // channel: billed SMS/WhatsApp (0024)
    index("deliveries_customer_idx").on(t.customerId),
  ],
);

/**
 * How many deliveries of each broadcast are in each status (and, while Queued, held back for which reason): kept by
 * triggers on deliveries (migrations/0011), in the same transaction as every write, so a broadcast's progress is a
 * read of a few rows however many recipients it has (GetBroadcastStatus while 100,000 send).
 */
export const broadcastCounts = sqliteTable(
  "broadcast_counts",
  {
    broadcastId: integer("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["Queued", "Sending", "Uncertain", "Sent", "Delivered", "Failed", "Skipped", "Expired", "Cancelled"] }).notNull(),
    /** A Queued delivery's deferred_reason; '' for none and for every other status. */
    reason: text("reason").notNull().default(""),
    n: integer("n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.broadcastId, t.status, t.reason] })],
);

/** The MessageSid of every inbound message acted on (a keyword), so a replayed signed request is ignored. */
export const inboundMessages = sqliteTable("inbound_messages", {
  messageSid: text("message_sid").primaryKey(),
  receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
});

/** When each customer last wrote to us on each channel: WhatsApp allows free-form messages only within 24 hours of
 * the person's last message (outside it, only approved templates). */
export const customerInbound = sqliteTable(
  "customer_inbound",
  {
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["SMS", "WhatsApp"] }).notNull(),
    lastInboundAt: integer("last_inbound_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.channel] })],
);

/** Settings saved from the Settings screen or `nearcast settings set`; an environment variable overrides its row
 * (src/services/settings.ts). One row per key; no row = not saved. */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});

// A test message the owner sent to their own phone (issue 23 item 6): not a delivery (no broadcast), but its outcome
// comes back by status callback (?test=<id>) and the test panel and `nearcast broadcast test` show it.
export const testSends = sqliteTable(
  "test_sends",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ownerId: integer("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["SMS", "WhatsApp"] }).notNull(),
    toPhone: text("to_phone").notNull(),
    contentSid: text("content_sid"),
    // Nearcast's status: Sending until the provider answered, then Sent (queued at Twilio or on its way), Delivered, Failed.
    status: text("status", { enum: ["Sending", "Sent", "Delivered", "Failed"] }).notNull().default("Sending"),
    providerId: text("provider_id"),
    providerStatus: text("provider_status"),
    errorCode: integer("error_code"),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }),
  },
  (t) => [index("test_sends_owner_idx").on(t.ownerId, t.id)],
);

/** The links to /my-subscriptions a HELP reply carries: only the token's SHA-256 is kept, for 30 days. */
export const subscriptionLinks = sqliteTable(
  "subscription_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("subscription_links_token_hash_unique").on(t.tokenHash),
    index("subscription_links_customer_idx").on(t.customerId, t.id),
    index("subscription_links_expires_idx").on(t.expiresAt),
  ],
);

// The inbox (issue 24, migrations/0020): every message a number texts us, stored with the business of its
// conversation (null: a number that follows none, kept for no owner). body NULL once pruned (replyRetentionDays).
export const inboxMessages = sqliteTable(
  "inbox_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Unique when present: a replayed webhook stores nothing twice.
    messageSid: text("message_sid"),
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "cascade" }),
    businessId: integer("business_id").references(() => businesses.id, { onDelete: "cascade" }),
    fromPhone: text("from_phone").notNull(),
    channel: text("channel", { enum: ["SMS", "WhatsApp"] }).notNull(),
    body: text("body"),
    mediaCount: integer("media_count").notNull().default(0),
    receivedAt: integer("received_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("inbox_messages_sid_unique").on(t.messageSid).where(sql`message_sid IS NOT NULL`),
    index("inbox_messages_conversation_idx").on(t.customerId, t.businessId, t.receivedAt),
    index("inbox_messages_received_idx").on(t.receivedAt),
  ],
);

// A reply's pictures and files, fetched from Twilio (with the account's credentials) into the uploads folder.
export const inboxMedia = sqliteTable(
  "inbox_media",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id")
      .notNull()
      .references(() => inboxMessages.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
  },
  (t) => [index("inbox_media_message_idx").on(t.messageId)],
);

// One customer with one business: the latest reply and how many the owner has not read.
export const conversations = sqliteTable(
  "conversations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    businessId: integer("business_id")
      .notNull()
      .references(() => businesses.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: ["SMS", "WhatsApp"] }).notNull(),
    lastMessageAt: integer("last_message_at", { mode: "timestamp_ms" }).notNull(),
    preview: text("preview").notNull().default(""),
    unread: integer("unread").notNull().default(0),
  },
  (t) => [
    uniqueIndex("conversations_customer_business_unique").on(t.customerId, t.businessId),
    index("conversations_business_idx").on(t.businessId, t.lastMessageAt),
  ],
);

// When each business's owner was last emailed about new replies (at most once an hour, across restarts).
export const inboxNotices = sqliteTable("inbox_notices", {
  businessId: integer("business_id")
    .primaryKey()
    .references(() => businesses.id, { onDelete: "cascade" }),
  notifiedAt: integer("notified_at", { mode: "timestamp_ms" }).notNull(),
});

export * from "./engagement-schema.ts";
