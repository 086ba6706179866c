// bench/lists.ts --shops N (issue 26 item 7, a town on one box): N shops, each with its own owner, share the customers
// (lists.ts's generator: seedShop, then insertManySubscribers for every other shop). One data dir is seeded, copied
// for each build, and every build serves its copy at the same time; the requests then go round by round, one build
// after the other (the order swapped each round), so a busy moment of the shared machine weighs on every build:
//   - owner page:   one owner's list (one business), the baseline the admin's pages are compared with;
//   - admin page 1 / page 2: the admin's whole list, first page and the page after its cursor;
//   - admin q=last 4: a phone search by four digits, a number's last (300 of the million numbers hold them);
//   - admin q=number: a whole number as typed ("(415) 512-3456"); admin q=415: digits every number has.
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { insertManySubscribers, sessionFor } from "../test/helpers/customer-factories.ts";
import { insertUser } from "../test/helpers/factories.ts";
import { seedShop } from "../test/helpers/seed-shop.ts";
import { type RunningBinary, startBinary } from "../test/helpers/server.ts";
import { shopWithSubscribers } from "../test/helpers/worlds.ts";

const FIRST_NUMBER = 5_000_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function seedTown(dataDir: string, shops: number, customers: number) {
  const per = Math.floor(customers / shops);
  const t0 = performance.now();
  const tokens = await seedShop(dataDir, { ownerEmail: "lists@example.com", businessName: "Shop 1", subscribers: per, firstNumber: FIRST_NUMBER }, (ctx) => {
    for (let i = 1; i < shops; i++) {
      const { business } = shopWithSubscribers(ctx, 0, { owner: { email: `owner${i + 1}@example.com` }, business: { name: `Shop ${i + 1}` } });
      insertManySubscribers(ctx, business.id, per, FIRST_NUMBER + i * per);
    }
    const admin = insertUser(ctx, { role: "admin", email: "admin@example.com" });
    return { owner: sessionFor(ctx, ctx.repos.users.findByEmail("lists@example.com")!), admin: sessionFor(ctx, admin) };
  });
  const mb = (Bun.file(join(dataDir, "nearcast.db")).size / 1024 / 1024).toFixed(0);
  console.log(`seeded ${shops} shops, ${(per * shops).toLocaleString("en-US")} subscriptions (${mb} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return tokens;
}

async function get(url: string, token: string): Promise<{ ms: number; body: { nextCursor: string | null; total: number; totalCapped?: boolean; items: unknown[] } }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { nextCursor: string | null; total: number; items: unknown[] };
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms: performance.now() - t0, body };
}

const peakRssMb = (server: RunningBinary) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

export async function townBench(builds: [string, string][], shops: number, customers: number, rounds: number, perRound: number): Promise<void> {
  const seedDir = mkdtempSync(join(tmpdir(), "nearcast-bench-town-"));
  const dirs: string[] = [];
  const servers: RunningBinary[] = [];
  try {
    const tokens = await seedTown(seedDir, shops, customers);
    for (const _ of builds) {
      const dir = mkdtempSync(join(tmpdir(), "nearcast-bench-town-copy-"));
      cpSync(seedDir, dir, { recursive: true });
      dirs.push(dir);
    }
    for (const [i, [, binary]] of builds.entries()) {
      const t0 = performance.now();
      servers.push(await startBinary({ NEARCAST_LOG_LEVEL: "error" }, dirs[i]!, { binary, startTimeoutMs: 60_000 }));
      console.log(`${builds[i]![0]}: listening after ${(performance.now() - t0).toFixed(0)} ms`);
    }
    const kinds: [string, string, (base: string) => Promise<string>][] = [
      ["owner page", tokens.owner, async (u) => `${u}/api/customer/ListCustomers?limit=50`],
      ["admin page 1", tokens.admin, async (u) => `${u}/api/customer/ListCustomers?limit=50`],
      ["admin page 2", tokens.admin, async (u) => `${u}/api/customer/ListCustomers?limit=50&cursor=${(await get(`${u}/api/customer/ListCustomers?limit=50`, tokens.admin)).body.nextCursor}`],
      ["admin q=last 4", tokens.admin, async (u) => `${u}/api/customer/ListCustomers?limit=50&q=7123`],
      ["admin q=number", tokens.admin, async (u) => `${u}/api/customer/ListCustomers?limit=50&q=${encodeURIComponent("(415) 512-3456")}`],
      ["admin q=415", tokens.admin, async (u) => `${u}/api/customer/ListCustomers?limit=50&q=415`],
    ];
    const times = new Map<string, number[]>();
    const totals = new Map<string, string>();
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? servers.map((s, i) => [s, i] as const) : servers.map((s, i) => [s, i] as const).reverse();
      for (const [kind, token, urlOf] of kinds) {
        for (const [server, i] of order) {
          const url = await urlOf(server.url);
          for (let k = 0; k < perRound; k++) {
            const { ms, body } = await get(url, token);
            const key = `${builds[i]![0]}|${kind}`;
            times.set(key, [...(times.get(key) ?? []), ms]);
            totals.set(key, `${body.total.toLocaleString("en-US")}${body.totalCapped ? "+" : ""} (${body.items.length} rows)`);
          }
        }
      }
      console.log(`round ${r + 1}/${rounds} done, load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
    }
    console.log(`\n${shops} shops, ${customers.toLocaleString("en-US")} subscriptions, ${rounds} rounds x ${perRound} requests, ${new Date().toISOString()}`);
    console.log(`| request | ${builds.map(([name]) => `${name}: median ms (x owner page)`).join(" | ")} | total shown |`);
    console.log(`|---|${builds.map(() => "---|").join("")}---|`);
    for (const [kind] of kinds) {
      const cells = builds.map(([name]) => {
        const m = median(times.get(`${name}|${kind}`)!);
        return `${m.toFixed(1)} (${(m / median(times.get(`${name}|owner page`)!)).toFixed(1)}x)`;
      });
      console.log(`| ${kind} | ${cells.join(" | ")} | ${builds.map(([name]) => totals.get(`${name}|${kind}`)).join(" / ")} |`);
    }
    console.log(`peak RSS: ${builds.map(([name], i) => `${name} ${peakRssMb(servers[i]!).toFixed(0)} MB`).join(", ")}`);
  } finally {
    for (const s of servers) await s.stop();
    for (const d of [seedDir, ...dirs]) rmSync(d, { recursive: true, force: true });
  }
}
