// Baseline for bench/subscribe.ts: POST /api/subscription/Subscribe on Node with Fastify + better-sqlite3, doing the
// same request checks as Nearcast (XSRF double-submit, body shape, the spec's phone rule, E.164 with
// libphonenumber-js, contact preference, source, active business) and ONE insert per request, committed before the
// answer (SQLite autocommit; WAL, synchronous=NORMAL, the same durability settings as Nearcast).
//   node server.mjs <port> <database file>
import Database from "better-sqlite3";
import Fastify from "fastify";
import { parsePhoneNumberFromString } from "libphonenumber-js";

const port = Number(process.argv[2] ?? 0);
const file = process.argv[3] ?? "baseline.db";

const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 5000");
db.exec(`
  CREATE TABLE IF NOT EXISTS businesses (id INTEGER PRIMARY KEY, name TEXT NOT NULL, is_active INTEGER NOT NULL DEFAULT 1,
    success_message TEXT);
  CREATE TABLE IF NOT EXISTS subscriptions (id INTEGER PRIMARY KEY, business_id INTEGER NOT NULL REFERENCES businesses(id),
    phone TEXT NOT NULL, contact_preference TEXT NOT NULL, source TEXT NOT NULL, consent_at INTEGER NOT NULL,
    consent_text TEXT NOT NULL, ip TEXT, user_agent TEXT);
  CREATE UNIQUE INDEX IF NOT EXISTS subscriptions_business_phone ON subscriptions (business_id, phone);
  INSERT OR IGNORE INTO businesses (id, name) VALUES (1, 'Bench Bakery');
`);
const findBusiness = db.prepare("SELECT id, name, is_active, success_message FROM businesses WHERE id = ?");
const insert = db.prepare(
  `INSERT INTO subscriptions (business_id, phone, contact_preference, source, consent_at, consent_text, ip, user_agent)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (business_id, phone) DO NOTHING`,
);

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
  const consent = `By subscribing, you agree to receive promotions, offers, deals and event news from ${business.name} by ${pref}. Reply STOP at any time to unsubscribe.`;
  insert.run(business.id, parsed.number, pref, source, Date.now(), consent, req.ip, req.headers["user-agent"] ?? null);
  return reply.send({ message: business.success_message || DEFAULT_SUCCESS });
});
app.get("/api/health", (_req, reply) => {
  reply.header("set-cookie", "XSRF-TOKEN=baseline-token; Path=/; SameSite=Strict");
  return { status: "ok" };
});

await app.listen({ port, host: "127.0.0.1" });
process.stderr.write(`listening on http://127.0.0.1:${app.server.address().port}\n`);
const stop = async () => {
  await app.close();
  db.close();
  process.exit(0);
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
