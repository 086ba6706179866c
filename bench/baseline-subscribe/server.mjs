// Baseline for bench/subscribe.ts: POST /api/subscription/Subscribe on Node with Fastify + better-sqlite3, doing the
// same work as Nearcast (bench/README.md lists both sides, step by step), on the same schema (Nearcast's own
// migrations) and durability settings (WAL, synchronous=NORMAL):
// - the request: XSRF double submit, the body's shape, the spec's phone shape, contact preference, source;
// - the number: E.164 with libphonenumber-js (the default country), then its full metadata ("max") for the number
//   type (mobile only) and its country (the allowed countries), and WhatsApp refused for US numbers;
// - the settings in use read from the settings table on every request (as Nearcast does, so that a change made by
//   another process counts at once): allowed countries and the text budgets, the environment winning;
// - ONE transaction: the business with its owner's status, the customer found or created by phone, the subscription
//   and its consent event; then the confirmation text as the outbox queues it: no confirmation from this business in
//   the last 24 hours, a broadcast row of kind 'confirmation' with the text, the slot under the text budgets (the
//   owner's and the install's hour, the number's 24 hours), the delivery row (only for a subscribed person not under
//   a STOP) and its budget slot, the broadcast's total.
//   node server.mjs <port> <database file>
import Database from "better-sqlite3";
import Fastify from "fastify";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { openNearcastSchema, serve } from "../lib/baseline.mjs";

const port = Number(process.argv[2] ?? 0);
const file = process.argv[3] ?? "baseline.db";
const DEFAULT_COUNTRY = "US";
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const PER_NUMBER_PER_DAY = 3;
const SANDBOX_TEMPLATE = "HXsandbox0000000000000000000optin3";

const db = openNearcastSchema(Database, file);
db.exec(`
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (1, 'owner@bench.test', 'Bench', 'Owner', 'x');
  INSERT OR IGNORE INTO business_types (id, name) VALUES (1, 'Bakery');
  INSERT INTO businesses (id, owner_id, business_type_id, name, address, phone, sample_product_text)
    VALUES (1, 1, 1, 'Bench Bakery', '1 Main Street', '(415) 555-0100', 'Fresh bread');
`);

const sql = {
  settings: db.prepare("SELECT key, value FROM settings"),
  business: db.prepare(
    `SELECT b.id, b.name, b.is_active, b.success_message, b.double_opt_in, b.messages_per_week, b.owner_id, u.status AS owner_status
     FROM businesses b JOIN users u ON u.id = b.owner_id WHERE b.id = ?`,
  ),
  upsertCustomer: db.prepare(
    `INSERT INTO customers (phone, created_at) VALUES (?, ?) ON CONFLICT (phone) DO UPDATE SET phone = excluded.phone RETURNING id`,
  ),
  insertSubscription: db.prepare(
    `INSERT INTO subscriptions (customer_id, business_id, status, contact_preference, source, consent_at, consent_text, ip, user_agent, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
  ),
  insertConsentEvent: db.prepare(
    `INSERT INTO consent_events (customer_id, business_id, kind, source, consent_text, ip, user_agent, at)
     VALUES (?, ?, 'subscribed', ?, ?, ?, ?, ?)`,
  ),
  confirmedWithinDay: db.prepare(
    `SELECT 1 FROM deliveries d JOIN broadcasts b ON b.id = d.broadcast_id
     WHERE d.customer_id = ? AND d.business_id = ? AND b.kind = 'confirmation' AND b.created_at > ? LIMIT 1`,
  ),
  insertBroadcast: db.prepare(
    `INSERT INTO broadcasts (business_id, created_by, kind, origin, message_text, content_sid, content_variables, total, created_at, started_at, scheduled_for)
     VALUES (?, NULL, 'confirmation', 'public', ?, ?, ?, 0, ?, ?, ?) RETURNING id`,
  ),
  // The limit-th latest slot of each budget: the earliest the next text may go is that slot plus the window.
  ownerNth: db.prepare(`SELECT slot_at FROM text_budget WHERE owner_id = ? AND slot_at > ? ORDER BY slot_at DESC LIMIT 1 OFFSET ? - 1`),
  installNth: db.prepare(`SELECT slot_at FROM text_budget WHERE slot_at > ? ORDER BY slot_at DESC LIMIT 1 OFFSET ? - 1`),
  numberNth: db.prepare(
    `SELECT slot_at FROM text_budget WHERE kind = 'confirmation' AND phone = ? AND slot_at > ? ORDER BY slot_at DESC LIMIT 1 OFFSET ? - 1`,
  ),
  insertDelivery: db.prepare(
    `INSERT INTO deliveries (broadcast_id, customer_id, business_id, channel, to_phone, status, attempts, next_attempt_at, deferred_reason)
     SELECT ?, c.id, s.business_id, s.contact_preference, c.phone, 'Queued', 0, ?, ?
     FROM subscriptions s JOIN customers c ON c.id = s.customer_id
     WHERE s.business_id = ? AND s.customer_id = ? AND s.status IN ('active', 'unconfirmed')
       AND (SELECT e.kind FROM consent_events e WHERE e.customer_id = s.customer_id AND e.business_id IS NULL ORDER BY e.id DESC LIMIT 1)
           IS NOT 'unsubscribed'
     RETURNING id`,
  ),
  insertSlot: db.prepare(`INSERT INTO text_budget (owner_id, kind, phone, slot_at, created_at) VALUES (?, 'confirmation', ?, ?, ?)`),
  addTotal: db.prepare(`UPDATE broadcasts SET total = total + ? WHERE id = ?`),
};

/** The settings in use: the environment, then the saved row, then the default. */
function currentSettings() {
  const saved = Object.fromEntries(sql.settings.all().map((r) => [r.key, r.value]));
  const get = (key, env, fallback) => process.env[env] ?? saved[key] ?? fallback;
  const countries = get("allowedCountries", "NEARCAST_ALLOWED_COUNTRIES", DEFAULT_COUNTRY);
  return {
    allowedCountries: countries.trim() === "*" ? null : countries.toUpperCase().split(",").map((c) => c.trim()),
    confirmationsPerHour: Number(get("confirmationsPerHour", "NEARCAST_CONFIRMATIONS_PER_HOUR", "200")),
    ownerTextsPerHour: Number(get("ownerTextsPerHour", "NEARCAST_OWNER_TEXTS_PER_HOUR", "50")),
  };
}

const consentText = (business, pref) =>
  `By subscribing, you agree to receive recurring promotional messages by ${pref}, up to ${business.messages_per_week} per week, from ` +
  `${business.name.trim()} at this number. Consent is not a condition of purchase. Msg & data rates may apply. Reply STOP to cancel, HELP for help. See our Terms and Privacy Policy.`;

const confirmationText = (business) => {
  const n = business.messages_per_week;
  const what = business.double_opt_in ? "reply YES to get promotions by text" : "you're subscribed to promotions";
  return `${business.name.trim()}: ${what}, up to ${n} msg${n === 1 ? "" : "s"}/week. Msg & data rates may apply. Reply STOP to cancel, HELP for help.`;
};

/** When the next text to `phone` may go under the three budgets (now, or later when one of them is full). */
function budgetSlot(ownerId, phone, now, s) {
  const after = (row, windowMs) => (row ? row.slot_at + windowMs : now);
  return Math.max(
    now,
    after(sql.ownerNth.get(ownerId, now - HOUR_MS, s.ownerTextsPerHour), HOUR_MS),
    after(sql.installNth.get(now - HOUR_MS, s.confirmationsPerHour), HOUR_MS),
    after(sql.numberNth.get(phone, now - DAY_MS, PER_NUMBER_PER_DAY), DAY_MS),
  );
}

/** The confirmation text of a new subscription, queued in the outbox (held while the owner awaits approval). */
function queueConfirmation(business, customerId, phone, now, s) {
  if (sql.confirmedWithinDay.get(customerId, business.id, now - DAY_MS)) return;
  const variables = JSON.stringify({ 1: business.name.trim(), 2: String(business.messages_per_week) });
  const broadcastId = sql.insertBroadcast.get(business.id, confirmationText(business), SANDBOX_TEMPLATE, variables, now, now, now).id;
  const approved = business.owner_status === "approved";
  const slot = approved ? budgetSlot(business.owner_id, phone, now, s) : Date.UTC(9999, 11, 31);
  const wait = approved ? (slot > now ? "text_budget" : null) : "owner_pending";
  const delivery = sql.insertDelivery.get(broadcastId, slot, wait, business.id, customerId);
  if (!delivery) return;
  if (approved) sql.insertSlot.run(business.owner_id, phone, slot, now);
  sql.addTotal.run(1, broadcastId);
}

class Refused extends Error {
  constructor(status, message, fields) {
    super(message);
    this.status = status;
    this.fields = fields;
  }
}

const subscribe = db.transaction((businessId, phone, pref, source, ip, userAgent, s) => {
  const business = sql.business.get(businessId);
  if (!business || !business.is_active) throw new Refused(404, "This business was not found or is not taking subscriptions right now.");
  const now = Date.now();
  const consent = consentText(business, pref);
  const customerId = sql.upsertCustomer.get(phone, now).id;
  const status = business.double_opt_in ? "unconfirmed" : "active";
  if (sql.insertSubscription.get(customerId, business.id, status, pref, source, now, consent, ip, userAgent, now)) {
    sql.insertConsentEvent.run(customerId, business.id, source, consent, ip, userAgent, now);
    queueConfirmation(business, customerId, phone, now, s);
  }
  const success = business.success_message || DEFAULT_SUCCESS;
  return business.double_opt_in ? `${success} To confirm, reply YES to the text we are sending you.` : success;
});

const PHONE = /^\+?[1-9]\d{0,15}$/;
const DEFAULT_SUCCESS = "Congratulations! Your phone number is Successfully Subscribed, you will be notified when we have new deals!";
const INVALID_PHONE = "Please enter a valid phone number";
const NOT_A_MOBILE = "Please enter a mobile number: premium-rate, toll-free, shared-cost and landline numbers cannot subscribe.";

function cookie(header, name) {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

/** The typed number in E.164, checked: valid, a mobile, from an allowed country, reachable on the chosen channel. */
function textableNumber(raw, pref, allowed) {
  const compact = raw.replace(/[\s().-]/g, "");
  if (/^\d{3,6}$/.test(compact)) throw new Refused(400, "Please enter a full mobile number, not a short code.", "phone");
  const parsed = PHONE.test(compact) ? parsePhoneNumberFromString(compact, DEFAULT_COUNTRY) : undefined;
  if (!parsed?.isValid()) throw new Refused(400, INVALID_PHONE, "phone");
  const type = parsed.getType();
  if (!parsed.country || (type !== "MOBILE" && type !== "FIXED_LINE_OR_MOBILE")) throw new Refused(400, NOT_A_MOBILE, "phone");
  if (allowed && !allowed.includes(parsed.country)) throw new Refused(400, `Only mobile numbers from ${allowed.join(", ")} can subscribe here.`, "phone");
  if (pref === "WhatsApp" && parsed.country === "US") {
    throw new Refused(400, "WhatsApp can't deliver promotions to US numbers. Please choose SMS.", "contactPreference");
  }
  return parsed.number;
}

function handle(req) {
  const xsrf = cookie(req.headers.cookie, "XSRF-TOKEN");
  if (!xsrf || xsrf !== req.headers["x-xsrf-token"]) throw new Refused(403, "Your session token is missing or out of date.");
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Refused(400, "Request body must be a JSON object.");
  const businessId = typeof body.businessId === "string" && /^\d{1,16}$/.test(body.businessId.trim()) ? Number(body.businessId) : body.businessId;
  if (!Number.isInteger(businessId) || businessId < 1) throw new Refused(400, "Business ID is required.", "businessId");
  const rawPhone = typeof body.phone === "string" ? body.phone.trim() : "";
  if (!rawPhone) throw new Refused(400, "Phone number is required", "phone");
  const pref = body.contactPreference;
  if (pref !== "SMS" && pref !== "WhatsApp") throw new Refused(400, "Please select a contact preference", "contactPreference");
  const source = body.source ?? "qr";
  if (source !== "qr" && source !== "list") throw new Refused(400, "Source must be qr or list.", "source");
  const s = currentSettings();
  const phone = textableNumber(rawPhone, pref, s.allowedCountries);
  return subscribe.immediate(businessId, phone, pref, source, req.ip, req.headers["user-agent"]?.slice(0, 500) ?? null, s);
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.post("/api/subscription/Subscribe", (req, reply) => {
  try {
    return reply.send({ message: handle(req) });
  } catch (err) {
    if (!(err instanceof Refused)) throw err;
    return reply.code(err.status).send(err.fields ? { error: err.message, fields: { [err.fields]: err.message } } : { error: err.message });
  }
});
app.get("/api/health", (_req, reply) => {
  reply.header("set-cookie", "XSRF-TOKEN=baseline-token; Path=/; SameSite=Strict");
  return { status: "ok" };
});

await serve(app, db, port);
