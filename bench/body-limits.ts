// Memory under oversized bodies (issue 10 item 2): 40 parallel 30 MB chunked bodies, from senders that keep streaming
// whatever the server answers, to each kind of route of `dist/nearcast serve` (Twilio configured, so the webhooks
// check signatures, as in the audit). Prints the server's RSS before and its peak per route, side by side with a
// named baseline build when given (e.g. the build before the streaming caps):
//
//   npx bun scripts/build.ts && npx bun bench/body-limits.ts [--baseline /tmp/nearcast-before]
//
// Loopback only; about 10 s per build. Target: peak RSS < 150 MB on every route.
import { join } from "node:path";
import { floodOne, rssMb, sampleRss } from "../test/helpers/body-flood.ts";
import { startFakeTwilio } from "../test/helpers/fake-twilio.ts";
import { httpClient, startBinary } from "../test/helpers/server.ts";

const args = process.argv.slice(2);
const baseline = args[args.indexOf("--baseline") + 1];
const builds: [string, string][] = [["nearcast", join(import.meta.dir, "..", "dist", "nearcast")]];
if (args.includes("--baseline") && baseline) builds.push(["baseline", baseline]);

const OWNER = { firstName: "Ada", lastName: "Baker", email: "bench@example.com", password: "correct horse" };

async function measure(binary: string): Promise<Record<string, number>> {
  const fake = startFakeTwilio();
  const server = await startBinary({ ...fake.settings(), NEARCAST_LOG_LEVEL: "error" }, undefined, { binary });
  try {
    const port = Number(new URL(server.url).port);
    const call = httpClient(server.url);
    await call("POST", "/api/auth/Register", OWNER);
    const token = (await call("POST", "/api/auth/Login", { email: OWNER.email, password: OWNER.password })).body.token;
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec((await fetch(`${server.url}/api/health`)).headers.get("set-cookie") ?? "")![1]!;
    const browser = { cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf };
    const routes: [string, string, Record<string, string>][] = [
      ["Login (JSON)", "/api/auth/Login", { ...browser, "content-type": "application/json" }],
      ["inbound webhook", "/api/webhooks/twilio/inbound", { "content-type": "application/x-www-form-urlencoded" }],
      ["status webhook", "/api/webhooks/twilio/status", { "content-type": "application/x-www-form-urlencoded" }],
      ["upload", "/api/business/UploadSampleImage", { ...browser, authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=xyz" }],
      ["unknown path", "/api/nope", { ...browser, "content-type": "application/json" }],
    ];
    const out: Record<string, number> = { before: rssMb(server.proc.pid!) };
    for (const [name, path, headers] of routes) {
      const sampler = sampleRss(server.proc.pid!);
      await Promise.all(Array.from({ length: 40 }, () => floodOne(port, path, { headers })));
      await Bun.sleep(200);
      out[name] = sampler.stop();
    }
    return out;
  } finally {
    await server.stop();
    await fake.stop();
  }
}

const rows: Record<string, Record<string, number>> = {};
for (const [name, binary] of builds) rows[name] = await measure(binary);
const keys = Object.keys(rows.nearcast!);
console.log(`peak RSS (MB) during 40 parallel 30 MB chunked bodies per route`);
console.log(["", ...builds.map(([n]) => n)].map((s) => s.padEnd(18)).join(""));
for (const k of keys) console.log([k, ...builds.map(([n]) => rows[n]![k]!.toFixed(0))].map((s) => s.padEnd(18)).join(""));
