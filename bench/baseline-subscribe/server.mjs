// Baseline for bench/subscribe.ts: POST /api/subscription/Subscribe on Node with Fastify + better-sqlite3, doing the
// same work as Nearcast: the same request checks (XSRF double-submit, body shape, the spec's phone rule, E.164 with
// libphonenumber-js, contact preference, source, active business) and the same writes on the same schema (Nearcast's
// own migrations): the customer upserted by phone, the subscription and its consent event, in ONE transaction
// committed before the answer (WAL, synchronous=NORMAL, the same durability settings as Nearcast).
//   node server.mjs <port> <database file>
import Database from "better-sqlite3";
import Fastify from "fastify";
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { openNearcastSchema, serve } from "../lib/baseline.mjs";

const port = Number(process.argv[2] ?? 0);
const file = process.argv[3] ?? "baseline.db";

const db = openNearcastSchema(Database, file);
db.exec(`
  INSERT INTO users (id, email, first_name, last_name, password_hash) VALUES (1, 'owner@bench.test', 'Bench', 'Owner', 'x');
  INSERT OR IGNORE INTO business_types (id, name) VALUES (1, 'Bakery');
  INSERT INTO businesses (id, owner_id, business_type_id, name, address, phone, sample_product_text)
    VALUES (1, 1, 1, 'Bench Bakery', '1 Main Street', '(415) 555-0100', 'Fresh bread');
`);
const findBusiness = db.prepare("SELECT id, name, is_active, success_message FROM businesses WHERE id = ?");
const upsertCustomer = db.prepare(
  `INSERT INTO customers (phone, created_at) VALUES (?, ?)
   ON CONFLICT (phone) DO UPDATE SET phone = excluded.phone RETURNING id`,
);
const insertSubscription = db.prepare(
  `INSERT INTO subscriptions (customer_id, business_id, status, contact_preference, source, consent_at, consent_text, ip, user_agent, created_at)
   VALUES (?, ?, 'active', ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
);
const insertConsentEvent = db.prepare(
  `INSERT INTO consent_events (customer_id, business_id, kind, source, consent_text, ip, user_agent, at)
   VALUES (?, ?, 'subscribed', ?, ?, ?, ?, ?)`,
);
/** The writes of one new subscription; an existing one is left as it is. */
const subscribe = db.transaction((business, phone, pref, source, consent, ip, userAgent) => {
  const now = Date.now();
  const customerId = upsertCustomer.get(phone, now).id;
  if (insertSubscription.get(customerId, business.id, pref, source, now, consent, ip, userAgent, now)) {
    insertConsentEvent.run(customerId, business.id, source, consent, ip, userAgent, now);
  }
});

const PHONE = /^\+?[1-9]\d{0,15}$/;
const DEFAULT_SUCCESS = "Congratulations! Your phone number is Successfully Subscribed, you will be notified when we have new deals!";

function bad(reply, status, error, fields) {
  return reply.code(status).send(fields ? { error, fields } : { error });
}

function cookie(header, name) {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
app.post("/api/subscription/Subscribe", (req, reply) => {
  const xsrf = cookie(req.headers.cookie, "XSRF-TOKEN");
  if (!xsrf || xsrf !== req.headers["x-xsrf-token"]) return bad(reply, 403, "Your session token is missing or out of date.");
  const body = req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return bad(reply, 400, "Request body must be a JSON object.");
  const businessId = typeof body.businessId === "string" && /^\d{1,16}$/.test(body.businessId.trim()) ? Number(body.businessId) : body.businessId;
  if (!Number.isInteger(businessId) || businessId < 1) return bad(reply, 400, "Business ID is required.", { businessId: "Business ID is required." });
  const rawPhone = typeof body.phone === "string" ? body.phone.trim() : "";
  if (!rawPhone) return bad(reply, 400, "Phone number is required", { phone: "Phone number is required" });
  const compact = rawPhone.replace(/[\s().-]/g, "");
  const parsed = PHONE.test(compact) ? parsePhoneNumberFromString(compact, "US") : undefined;
  if (!parsed?.isValid()) return bad(reply, 400, "Please enter a valid phone number", { phone: "Please enter a valid phone number" });
  const pref = body.contactPreference;
  if (pref !== "SMS" && pref !== "WhatsApp") return bad(reply, 400, "Please select a contact preference", { contactPreference: "Please select a contact preference" });
  const source = body.source ?? "qr";
  if (source !== "qr" && source !== "list") return bad(reply, 400, "Source must be qr or list.", { source: "Source must be qr or list." });
  const business = findBusiness.get(businessId);
  if (!business || !business.is_active) return bad(reply, 404, "This business was not found or is not taking subscriptions right now.");
  const consent = `By subscribing, you agree to receive promotions, offers, deals and event news from ${business.name} by ${pref === "SMS" ? "text message (SMS)" : pref} at this number. Subscribing is free; message and data rates may apply. Reply STOP at any time to unsubscribe.`;
  subscribe.immediate(business, parsed.number, pref, source, consent, req.ip, req.headers["user-agent"]?.slice(0, 500) ?? null);
  return reply.send({ message: business.success_message || DEFAULT_SUCCESS });
});
app.get("/api/health", (_req, reply) => {
  reply.header("set-cookie", "XSRF-TOKEN=baseline-token; Path=/; SameSite=Strict");
  return { status: "ok" };
});

await serve(app, db, port);
