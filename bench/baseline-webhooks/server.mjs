// Baseline for bench/webhooks.ts: POST /api/webhooks/twilio/status on Node with Fastify + @fastify/formbody +
// better-sqlite3, doing the same work as Nearcast: X-Twilio-Signature checked with twilio's own validateRequest over
// PUBLIC_URL + path + query (403 when wrong), then the delivery named by ?delivery= in the URL moved forward only (a
// late `sent` never overwrites `delivered`) when its sid matches, with ONE UPDATE on the same schema (Nearcast's own
// migrations, so the same indexes move), committed before the answer (WAL, synchronous=NORMAL, as Nearcast).
//   node server.mjs <port> <database file> <auth token> <public url>
import formbody from "@fastify/formbody";
import Database from "better-sqlite3";
import Fastify from "fastify";
import twilio from "twilio";
import { openNearcastSchema, serve } from "../lib/baseline.mjs";

const port = Number(process.argv[2] ?? 0);
const file = process.argv[3] ?? "baseline.db";
const authToken = process.argv[4] ?? "";
const publicUrl = (process.argv[5] ?? "").replace(/\/+$/, "");

const db = openNearcastSchema(Database, file);

const STATUS = { queued: "Sent", accepted: "Sent", scheduled: "Sent", sending: "Sent", sent: "Sent", delivered: "Delivered", read: "Delivered", undelivered: "Failed", failed: "Failed", canceled: "Failed" };
const RANK = "CASE status WHEN 'Sent' THEN 1 WHEN 'Delivered' THEN 2 WHEN 'Failed' THEN 2 ELSE 0 END";
const NEW_RANK = "CASE @status WHEN 'Sent' THEN 1 WHEN 'Delivered' THEN 2 WHEN 'Failed' THEN 2 ELSE 0 END";
const advance = db.prepare(
  `UPDATE deliveries SET status = @status, provider_status = @raw, error_code = COALESCE(@code, error_code),
     error_message = COALESCE(@message, error_message), sent_at = COALESCE(sent_at, @now), updated_at = @now
   WHERE id = @id AND provider_id = @sid AND ${RANK} < ${NEW_RANK}`,
);

const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
await app.register(formbody);
app.post("/api/webhooks/twilio/status", (req, reply) => {
  const params = req.body && typeof req.body === "object" ? req.body : {};
  const signature = req.headers["x-twilio-signature"];
  if (typeof signature !== "string" || !twilio.validateRequest(authToken, signature, publicUrl + req.url, params)) {
    return reply.code(403).send({ error: "Invalid or missing X-Twilio-Signature.", code: "invalid_signature" });
  }
  const sid = typeof params.MessageSid === "string" ? params.MessageSid : "";
  if (!sid) return reply.code(400).send({ error: "MessageSid is required.", code: "validation_failed" });
  const raw = String(params.MessageStatus ?? "").toLowerCase();
  const status = STATUS[raw];
  if (status) {
    const code = /^\d{1,9}$/.test(String(params.ErrorCode ?? "")) ? Number(params.ErrorCode) : null;
    const id = Number(/[?&]delivery=([1-9]\d{0,15})(&|$)/.exec(req.url)?.[1] ?? 0);
    advance.run({ id, sid, status, raw, code, message: params.ErrorMessage || null, now: Date.now() });
  }
  return reply.code(200).send();
});
app.get("/api/health", () => ({ status: "ok" }));

await serve(app, db, port);
