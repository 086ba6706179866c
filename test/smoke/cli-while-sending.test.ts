// A CLI that waits its turn (issue 13 item 5): every writing command, 20 times each, on the data dir of the BUILT
// executable while it sends a broadcast at full speed to the fake Twilio. Every write transaction starts IMMEDIATE,
// so a command waits out busy_timeout behind the server's writes instead of failing with "database is locked". The
// backups among them are checked too: taken while the server writes, each is whole.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { insertManySubscribers, sessionFor } from "../helpers/customer-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { fakeTwilioEnv, privateBinary, type RunningBinary, startBinary } from "../helpers/server.ts";
import { seedShop } from "../helpers/seed-shop.ts";

setDefaultTimeout(240_000);
const SUBSCRIBERS = 3000;
const TIMES = 20;

let fake: FakeTwilio;
let server: RunningBinary;
let work: string;
let bin: string;
let dataDir: string;
let quiet: number;
let token: string;

beforeAll(async () => {
  fake = startFakeTwilio();
  ({ work, bin, dataDir } = privateBinary("nearcast-cli-busy-"));
  const seeded = await seedShop(dataDir, { ownerEmail: "busy@example.com", businessName: "Busy Bakery", subscribers: SUBSCRIBERS, firstNumber: 3_000_000 }, (ctx, id) => {
    const ownerId = ctx.repos.businesses.findById(id)!.ownerId;
    // A second, small business for the CLI's own broadcasts and imports.
    const small = insertBusiness(ctx, { ownerId, name: "Quiet Corner" });
    insertManySubscribers(ctx, small.id, 1, 4_000_000);
    return { id, small: small.id, token: sessionFor(ctx, { id: ownerId }) };
  });
  quiet = seeded.small;
  token = seeded.token;
  server = await startBinary({ ...fakeTwilioEnv(fake, 150), NEARCAST_BACKUP_EVERY: "off" }, dataDir, { binary: bin, cwd: work });
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec((await fetch(`${server.url}/api/health`)).headers.get("set-cookie") ?? "")![1]!;
  const form = new FormData();
  form.set("BusinessId", String(seeded.id));
  form.set("MessageText", "Everything half price until we run out!");
  const res = await fetch(`${server.url}/api/business/PublishMessageToAllCustomers`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${xsrf}`, "x-xsrf-token": xsrf },
    body: form,
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await server?.stop();
  await fake.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Spawned, not spawnSync: the fake Twilio lives in this process and must go on answering the server meanwhile. */
async function run(args: string[]) {
  const p = Bun.spawn([bin, ...args, "--data-dir", dataDir], { cwd: work, env: { PATH: process.env.PATH ?? "" }, stdout: "ignore", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  return { code, err };
}

test(`each writing command ${TIMES} times while the server sends at full speed: no failure, no "database is locked"`, async () => {
  const commands: [string, (i: number) => string[]][] = [
    ["users create", (i) => ["users", "create", "--email", `clerk-${i}@example.com`, "--password", "secret-123"]],
    ["users reset-password", (i) => ["users", "reset-password", "--email", `clerk-${i}@example.com`, "--password", `new-secret-${i}`]],
    ["business-types add", (i) => ["business-types", "add", "--name", `Kiosk ${i}`]],
    ["customers import", (i) => {
      const csv = join(work, `one-${i}.csv`);
      writeFileSync(csv, `phone,contactPreference\n+1628555${String(1000 + i)},SMS\n`);
      return ["customers", "import", "--business", String(quiet), csv];
    }],
    ["customers forget", (i) => ["customers", "forget", `+1628555${String(1000 + i)}`]],
    ["settings set", (i) => ["settings", "set", "brandName", `Busy Shop ${i}`]],
    ["broadcast send --no-wait", (i) => ["broadcast", "send", "--business", String(quiet), "--message", `Quiet news ${i}`, "--yes", "--no-wait"]],
    ["prune", () => ["prune", "--older-than", "30d"]],
    ["backup", (i) => ["backup", "--out", join(work, `b-${i}.tar.gz`)]],
  ];
  const failures: string[] = [];
  let sentBefore = fake.sends().length;
  for (let i = 0; i < TIMES; i++) {
    for (const [name, args] of commands) {
      const r = await run(args(i));
      if (r.code !== 0) failures.push(`${name} #${i}: exit ${r.code} ${r.err.trim()}`);
    }
  }
  expect(failures).toEqual([]);
  // The server was sending all along (not paused by the commands).
  expect(fake.sends().length).toBeGreaterThan(sentBefore + 100);
  sentBefore = fake.sends().length;
  expect(sentBefore).toBeLessThan(SUBSCRIBERS + TIMES + 1); // nothing sent twice

  // The 20 backups taken meanwhile: each passes integrity_check, and each holds at least the sends the one before
  // it held (a row committed before a backup started is in it).
  let last = 0;
  for (let i = 0; i < TIMES; i++) {
    const into = join(work, `restored-${i}`);
    mkdirSync(into);
    expect(Bun.spawnSync(["tar", "-xzf", join(work, `b-${i}.tar.gz`), "-C", into]).exitCode).toBe(0);
    const db = new Database(join(into, "nearcast.db"));
    try {
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      const sent = (db.query("SELECT COUNT(*) AS n FROM deliveries WHERE provider_id IS NOT NULL").get() as { n: number }).n;
      expect(sent).toBeGreaterThanOrEqual(last);
      last = sent;
    } finally {
      db.close();
    }
  }
  expect(last).toBeGreaterThan(0);
});
