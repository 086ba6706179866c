// How much an anonymous caller can learn from timing: ForgotPassword and Register for an email that has an account
// against one that has not (issue 10, item 7). In process (app.request, no sockets), on a real database file in WAL
// mode, with SMTP set to a port nothing listens on (the emails themselves go out in the background either way).
// Interleaved known/unknown, the fake clock moved an hour before each pair so no rate limit is reached. Prints the
// median and p90 of each side, the gap between the medians and their ratio (the baseline: the email without an
// account; the target is a ratio of 1.00x, within noise). Usage: npx bun bench/auth-timing.ts [rounds]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeClock } from "../src/clock.ts";
import { loadConfig } from "../src/config.ts";
import { createContext } from "../src/context.ts";
import { createApp } from "../src/http/app.ts";
import { MemoryLogger } from "../src/lib/logger.ts";

const rounds = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(join(tmpdir(), "nearcast-auth-timing-"));
const clock = new FakeClock();
const config = loadConfig({
  NEARCAST_DATA_DIR: dir,
  NEARCAST_SMTP_URL: "smtp://127.0.0.1:1",
  NEARCAST_REGISTER_LIMIT: "0",
  NEARCAST_REGISTER_GLOBAL_LIMIT: "0",
});
const ctx = createContext(config, { clock, logger: new MemoryLogger() });
const app = createApp(ctx);
const XSRF = "bench-xsrf";

async function post(path: string, body: unknown): Promise<number> {
  const started = Bun.nanoseconds();
  const res = await app.request(
    path,
    {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `XSRF-TOKEN=${XSRF}`, "x-xsrf-token": XSRF },
      body: JSON.stringify(body),
    },
    { requestIP: () => ({ address: "198.51.100.1" }) },
  );
  await res.text();
  const us = (Bun.nanoseconds() - started) / 1000;
  if (res.status >= 500 || res.status === 429) throw new Error(`${path}: ${res.status}`);
  return us;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;
const fmt = (us: number) => `${(us / 1000).toFixed(3)} ms`;

function report(name: string, known: number[], unknown: number[]) {
  const gap = median(known) - median(unknown);
  console.log(
    `${name.padEnd(16)} known: median ${fmt(median(known))} p90 ${fmt(p90(known))} | unknown: median ${fmt(median(unknown))} p90 ${fmt(p90(unknown))} | gap of medians ${fmt(gap)}, ratio ${(median(known) / median(unknown)).toFixed(2)}x`,
  );
}

try {
  const account = { firstName: "Ada", lastName: "Baker", email: "ada@example.com", password: "correct horse" };
  await post("/api/auth/Register", account);
  // Warm up both paths (JIT, argon2's first allocation) before measuring.
  for (let i = 0; i < 5; i++) {
    clock.advance(3600_000);
    await post("/api/auth/ForgotPassword", { email: "ada@example.com" });
    await post("/api/auth/ForgotPassword", { email: `ghost${i}@example.com` });
  }
  const forgotKnown: number[] = [];
  const forgotUnknown: number[] = [];
  for (let i = 0; i < rounds; i++) {
    clock.advance(3600_000);
    // Alternate which goes first, so neither side always runs on a warmer cache.
    if (i % 2) {
      forgotKnown.push(await post("/api/auth/ForgotPassword", { email: "ada@example.com" }));
      forgotUnknown.push(await post("/api/auth/ForgotPassword", { email: `nobody${i}@example.com` }));
    } else {
      forgotUnknown.push(await post("/api/auth/ForgotPassword", { email: `nobody${i}@example.com` }));
      forgotKnown.push(await post("/api/auth/ForgotPassword", { email: "ada@example.com" }));
    }
  }
  const regExisting: number[] = [];
  const regNew: number[] = [];
  const regRounds = Math.max(10, Math.floor(rounds / 4));
  for (let i = 0; i < regRounds; i++) {
    clock.advance(3600_000);
    regExisting.push(await post("/api/auth/Register", account));
    regNew.push(await post("/api/auth/Register", { ...account, email: `new${i}@example.com` }));
  }
  console.log(`auth timing, ${rounds} rounds (Register: ${regRounds}), database ${join(dir, "nearcast.db")}`);
  report("ForgotPassword", forgotKnown, forgotUnknown);
  report("Register", regExisting, regNew);
} finally {
  await ctx.services.auth.idle();
  ctx.close();
  rmSync(dir, { recursive: true, force: true });
}
