// What keeping replies costs the inbound webhook (issue 24): POST /api/webhooks/twilio/inbound, signed as Twilio signs
// it, through the real Hono app on a real SQLite file (10 businesses, 20,000 followers; every text a new MessageSid,
// from a random follower, not a keyword). Side by side, in alternating rounds on the same file:
//   - baseline: the keyword-only path of before issue 24 (the same route with the inbox's receive() left out: the
//               signature, the keyword check, the 24-hour window's record, the TwiML answer);
//   - replies:  the route as it is, each text also stored with its conversation (services.inbox.receive).
// Requests go 8 at a time in-process (app.request: no socket, so the route's own work is what is timed). Reports
// requests per second, median and p99 per request, and the ratio replies/baseline.
//
//   npx bun bench/inbound-replies.ts [--requests 4000] [--rounds 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { createApp } from "../src/http/app.ts";
import { MemoryLogger } from "../src/lib/logger.ts";
import { insertManySubscribers } from "../test/helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../test/helpers/factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN } from "../test/helpers/fake-twilio.ts";
import { inboundRequest } from "../test/helpers/fake-twilio-inbound.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const REQUESTS = option("requests", 4000);
const ROUNDS = Math.max(1, option("rounds", 3));
const BUSINESSES = 10;
const PER_BUSINESS = 2000;
const CONCURRENCY = 8;
const PUBLIC_URL = "https://shop.example.com";
const PATH = "/api/webhooks/twilio/inbound";

const dir = mkdtempSync(join(tmpdir(), "nearcast-inbound-bench-"));
const env = { TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID, TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN, TWILIO_FROM: "+15005550006", TWILIO_API_BASE: "http://127.0.0.1:9", NEARCAST_PUBLIC_URL: PUBLIC_URL, NEARCAST_LOG_LEVEL: "error" };
const ctx = createContext(loadConfig(env, { dataDir: dir }), { logger: new MemoryLogger() });
const app = createApp(ctx);
const owner = insertUser(ctx, { email: "bench@example.com" });
for (let b = 0; b < BUSINESSES; b++) {
  const business = insertBusiness(ctx, { ownerId: owner.id, name: `Shop ${b + 1}` });
  insertManySubscribers(ctx, business.id, PER_BUSINESS, 5_550_000 + b * PER_BUSINESS);
}
const phones = (ctx.db.$client.query("SELECT phone FROM customers").all() as { phone: string }[]).map((r) => r.phone);

const inbox = ctx.services.inbox;
const receive = inbox.receive;
/** Baseline: the route without the inbox (what it did before issue 24). */
const noInbox: typeof receive = () => ({ messageId: null, businessId: null, media: Promise.resolve(0) });

let sid = 0;
async function one(): Promise<number> {
  sid += 1;
  const from = phones[Math.floor(Math.random() * phones.length)]!;
  const req = inboundRequest({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN }, PUBLIC_URL, PATH, { from, body: "Do you have rye bread today?", sid: `SM${sid.toString(16).padStart(32, "0")}` });
  const t0 = performance.now();
  const res = await app.request(PATH, { method: "POST", headers: req.headers, body: req.body });
  await res.text();
  if (res.status !== 200) throw new Error(`inbound answered ${res.status}`);
  return performance.now() - t0;
}

async function round(mode: "baseline" | "replies"): Promise<{ perSecond: number; times: number[] }> {
  inbox.receive = mode === "baseline" ? noInbox : receive;
  const times: number[] = [];
  const t0 = performance.now();
  for (let done = 0; done < REQUESTS; done += CONCURRENCY) times.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, one))));
  return { perSecond: (times.length / (performance.now() - t0)) * 1000, times };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const results = { baseline: { perSecond: [] as number[], times: [] as number[] }, replies: { perSecond: [] as number[], times: [] as number[] } };
await round("baseline");
await round("replies"); // warm-up of both paths
for (let r = 0; r < ROUNDS; r++) {
  for (const mode of ["baseline", "replies"] as const) {
    const x = await round(mode);
    results[mode].perSecond.push(x.perSecond);
    results[mode].times.push(...x.times);
  }
}
const median = (xs: number[]) => pct(xs, 0.5);
const stored = (ctx.db.$client.query("SELECT COUNT(*) AS n FROM inbox_messages").get() as { n: number }).n;
console.log(`${ROUNDS} rounds of ${REQUESTS} signed inbound texts each way (${CONCURRENCY} at a time); ${stored.toLocaleString()} replies stored in all`);
console.log("| path | requests/s (median of rounds) | median / p99 per request |");
console.log("|---|---|---|");
for (const mode of ["baseline", "replies"] as const) {
  const m = results[mode];
  console.log(`| ${mode} | ${median(m.perSecond).toFixed(0)} | ${median(m.times).toFixed(3)} ms / ${pct(m.times, 0.99).toFixed(3)} ms |`);
}
console.log(`replies / baseline throughput: **${(median(results.replies.perSecond) / median(results.baseline.perSecond)).toFixed(2)}x**`);
inbox.receive = receive;
ctx.close();
rmSync(dir, { recursive: true, force: true });
