// Baseline for bench/redirect.ts: GET /l/<code> on Node with Fastify + better-sqlite3, doing the work a click needs:
// the code looked up (short_links joined to broadcast_links for the URL), the click inserted, a 302 to the URL, on a
// copy of Nearcast's own database (the same rows), opened with Nearcast's durability settings (WAL, NORMAL). It counts
// every request (no preview or once-a-day check): Nearcast does those on top.
//   node server.mjs <port> <database file>
import Database from "better-sqlite3";
import Fastify from "fastify";
import { serve } from "../lib/baseline.mjs";

const port = Number(process.argv[2] ?? 0);
const file = process.argv[3] ?? "baseline.db";

const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("busy_timeout = 5000");
db.pragma("foreign_keys = ON");
const target = db.prepare(
  `SELECT l.url AS url, s.broadcast_id AS broadcastId, s.delivery_id AS deliveryId
   FROM short_links s JOIN broadcast_links l ON l.id = s.link_id WHERE s.code = ?`,
);
const click = db.prepare("INSERT INTO link_clicks (code, broadcast_id, delivery_id, clicked_at) VALUES (?, ?, ?, ?)");

const app = Fastify({ logger: false });
app.get("/l/:code", (req, reply) => {
  const t = target.get(req.params.code);
  if (!t) return reply.code(404).type("text/html").send("<!doctype html><title>Not found</title><p>This link does not work.</p>");
  click.run(req.params.code, t.broadcastId, t.deliveryId, Date.now());
  return reply.header("cache-control", "no-store").header("referrer-policy", "no-referrer").redirect(t.url, 302);
});

await serve(app, db, port);
