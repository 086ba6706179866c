// `nearcast broadcast send|status` as a user runs it: a real process on a real data directory, sending through the
// sandbox or through the real twilio client to the fake Twilio.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { broadcasts } from "../../src/db/schema.ts";
import { lockPathFor, tryLock } from "../../src/db/lock.ts";
import { type Run, cliEnv, nearcastCommand, nearcast as runNearcast, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { insertSubscriber } from "../helpers/customer-factories.ts";
import { insertBusiness, insertUser } from "../helpers/factories.ts";
import { PNG } from "../helpers/images.ts";
import { until } from "../helpers/until.ts";
import { fakeTwilioForFile } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // every test starts real processes

function env(extra: Record<string, string> = {}): Record<string, string | undefined> {
  return cliEnv({
    TWILIO_ACCOUNT_SID: undefined,
    TWILIO_AUTH_TOKEN: undefined,
    TWILIO_FROM: undefined,
    TWILIO_MESSAGING_SERVICE_SID: undefined,
    TWILIO_WHATSAPP_FROM: undefined,
    NEARCAST_SEND_RATE: "100",
    NEARCAST_PUBLIC_URL: "https://deals.example.com",
    ...extra,
  });
}

const nearcast = (args: string[], dataDir?: string, extra: Record<string, string> = {}): Run => runNearcast(args, dataDir, env(extra));

/** A running command: its stderr so far, and its outcome. */
function spawnNearcast(args: string[], dataDir: string, extra: Record<string, string> = {}) {
  const p = Bun.spawn({ cmd: nearcastCommand(args, dataDir), env: env(extra), stdout: "pipe", stderr: "pipe" });
  let stderr = "";
  const stderrRead = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of p.stderr) stderr += decoder.decode(chunk, { stream: true });
  })();
  const done = (async (): Promise<Run> => {
    const [stdout, code] = await Promise.all([new Response(p.stdout).text(), p.exited, stderrRead]);
    return { code, stdout, stderr };
  })();
  return { stderr: () => stderr, done };
}

const nearcastAsync = (args: string[], dataDir: string, extra: Record<string, string> = {}): Promise<Run> => spawnNearcast(args, dataDir, extra).done;

const dirs = tempDataDirs("nearcast-cli-broadcast");
const fake = fakeTwilioForFile();
afterAll(async () => {
  dirs.removeAll();
});

/** A data dir with one business and `n` active subscribers (+1 unsubscribed). */
function world(n = 4, whatsapp = 1) {
  const dir = dirs.make();
  return withDataDir(dir, (ctx) => {
    const owner = insertUser(ctx, { email: `owner-${dirs.count}@shop.com` });
    const business = insertBusiness(ctx, { ownerId: owner.id, name: "Ana's Bakery" });
    const empty = insertBusiness(ctx, { ownerId: owner.id, name: "Empty Shop" });
    const phones: string[] = [];
    for (let i = 0; i < n; i++) {
      const phone = `+1415${String(7000000 + dirs.count * 100 + i)}`;
      const { customer } = insertSubscriber(ctx, business.id, { phone, contactPreference: i < whatsapp ? "WhatsApp" : "SMS" });
      // The WhatsApp subscriber wrote to us a minute ago: free-form WhatsApp is allowed (the 24-hour window).
      if (i < whatsapp) ctx.repos.customerInbound.record(customer.id, "WhatsApp", Date.now() - 60_000);
      phones.push(phone);
    }
    insertSubscriber(ctx, business.id, { phone: `+1415${String(7000000 + dirs.count * 100 + 99)}`, status: "unsubscribed" });
    return { dir, businessId: business.id, emptyId: empty.id, phones };
  });
}

const read = withDataDir;

describe("help", () => {
  test("broadcast, send and status have Examples:", () => {
    for (const args of [["broadcast", "--help"], ["broadcast", "send", "--help"], ["broadcast", "status", "--help"]]) {
      const r = nearcast(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("Examples:");
    }
    const send = nearcast(["broadcast", "send", "--help"]).stdout;
    for (const opt of ["--business", "--message", "--image", "--dry-run", "--no-wait", "--data-dir"]) expect(send).toContain(opt);
    expect(nearcast(["--help"]).stdout).toContain("broadcast");
  });
});

describe("broadcast send", () => {
  test("--dry-run: recipients and SMS segments; nothing written", () => {
    const w = world(3, 1);
    const r = nearcast(["broadcast", "send", "--business", String(w.businessId), "--message", "Café crème 😊 today", "--dry-run"], w.dir);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Dry run: nothing was written or sent.");
    expect(r.stdout).toContain("Business:   Ana's Bakery");
    expect(r.stdout).toContain("Recipients: 3 (2 SMS, 1 WhatsApp)");
    expect(r.stdout).toContain("UCS-2, 1 SMS segment per SMS (2 segments for 2 SMS recipients)");
    for (const p of w.phones) expect(r.stdout).toContain(p);
    expect(read(w.dir, (ctx) => ctx.db.select().from(broadcasts).all())).toHaveLength(0);
  });

  test("no server running: the command sends it itself (sandbox) with a progress bar, then prints the summary", () => {
    const w = world(4);
    const r = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "2 for 1 bagels"], w.dir);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toBe("Broadcast queued: 4 messages to 4 subscribers. (broadcast 1)");
    expect(lines[1]).toBe("Broadcast 1 completed: 4 messages, 4 sent, 0 delivered, 0 failed.");
    expect(r.stderr).toContain("Sending (100/s, sandbox)...");
    expect(r.stderr).toContain("[########################] 100% 4/4 · 4 sent");
    const rows = read(w.dir, (ctx) => ctx.repos.deliveries.listByBroadcast(1));
    expect(rows.map((d) => d.status)).toEqual(["Sent", "Sent", "Sent", "Sent"]);
  });

  test("through Twilio (the fake): every subscriber gets one message; an image goes as MediaUrl", async () => {
    const w = world(3, 1);
    const image = join(w.dir, "deal.png");
    writeFileSync(image, PNG);
    const before = fake.sends().length;
    // async: the fake Twilio answers from this process, which must not block on the child
    const r = await nearcastAsync(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Fresh today", "--image", image], w.dir, fake.settings());
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining("Sending (100/s, twilio)...") });
    expect(r.stdout).toContain("Broadcast 1 completed: 3 messages, 3 sent");
    const sends = fake.sends().slice(before);
    expect(sends.map((s) => String(s.form.To).replace("whatsapp:", "")).sort()).toEqual([...w.phones].sort());
    expect(sends.every((s) => /^https:\/\/deals\.example\.com\/uploads\/[0-9a-f]{32}\.png$/.test(String(s.form.MediaUrl)))).toBe(true);
    expect(sends.every((s) => /\/api\/webhooks\/twilio\/status\?delivery=\d+$/.test(String(s.form.StatusCallback)))).toBe(true);
  });

  test("--no-wait: queued and returns; nothing sent", () => {
    const w = world(2);
    const r = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Later", "--no-wait"], w.dir);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Broadcast queued: 2 messages to 2 subscribers. (broadcast 1)\n");
    const rows = read(w.dir, (ctx) => ctx.repos.deliveries.listByBroadcast(1));
    expect(rows.map((d) => d.status)).toEqual(["Queued", "Queued"]);
  });

  test("the same text again within 10 minutes: refused with what was sent and how to confirm (exit 2); --confirm sends it", () => {
    const w = world(2);
    const args = ["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Same again", "--no-wait"];
    expect(nearcast(args, w.dir).code).toBe(0);
    const repeat = nearcast(args, w.dir);
    expect(repeat.code).toBe(2);
    expect(repeat.stdout).toBe("");
    expect(repeat.stderr).toMatch(
      /^nearcast: this business sent this same message less than 10 minutes ago \(broadcast 1, 2 recipients, at \d{4}-\d\d-\d\dT[\d:.]+Z\); nothing was sent\. To send it again, run the same command with --confirm\.\n$/,
    );
    expect(read(w.dir, (ctx) => ctx.db.select().from(broadcasts).all())).toHaveLength(1);
    const confirmed = nearcast([...args, "--confirm"], w.dir);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toBe("Broadcast queued: 2 messages to 2 subscribers. (broadcast 2)\n");
    expect(read(w.dir, (ctx) => ctx.repos.deliveries.listByBroadcast(2))).toHaveLength(2);
  });

  test("a running server holds the dispatcher lock: the command follows; when the server goes, it takes over", async () => {
    const w = world(3);
    const lock = tryLock(lockPathFor(w.dir))!;
    expect(lock).not.toBeNull();
    const running = spawnNearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Follow me"], w.dir);
    // the command is waiting on the "server": it says so, shows the progress once, and sends nothing while the lock is held
    // A new process (the CLI from source) on a busy 2-core machine: seconds, so the wait is generous.
    await until(() => /following its progress\.\.\.\n.+\n/.test(running.stderr()), 30_000, "the command to follow the server");
    expect(read(w.dir, (ctx) => ctx.db.select().from(broadcasts).all().length)).toBe(1);
    expect(read(w.dir, (ctx) => ctx.repos.deliveries.listByBroadcast(1).map((d) => d.status))).toEqual(["Queued", "Queued", "Queued"]);
    lock.release();
    const r = await running.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("A running server is sending this broadcast; following its progress...");
    expect(r.stdout).toContain("Broadcast 1 completed: 3 messages, 3 sent");
  }, 60_000);

  test("mistakes: one line, exit 2; no subscribers: the warning, exit 1", () => {
    const w = world(1);
    const notFound = nearcast(["broadcast", "send", "--yes", "--business", "999", "--message", "x"], w.dir);
    expect(notFound.code).toBe(2);
    expect(notFound.stderr).toBe("nearcast: Business not found.\n");
    const blank = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "   "], w.dir);
    expect(blank.code).toBe(2);
    expect(blank.stderr).toBe("nearcast: Message text is required\n");
    const badId = nearcast(["broadcast", "send", "--yes", "--business", "abc", "--message", "x"], w.dir);
    expect(badId.code).toBe(2);
    const text = join(w.dir, "menu.png");
    writeFileSync(text, "<html>not an image</html>");
    const notImage = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "x", "--image", text], w.dir);
    expect(notImage.code).toBe(2);
    expect(notImage.stderr).toBe("nearcast: Invalid file type. Only image files are allowed.\n");
    const missing = nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "x", "--image", join(w.dir, "nope.png")], w.dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot read the image");
    const none = nearcast(["broadcast", "send", "--yes", "--business", String(w.emptyId), "--message", "Anyone?"], w.dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe("nearcast: This business has no active subscribers yet. Share your QR code to get some!\n");
    const noArgs = nearcast(["broadcast", "send"], w.dir);
    expect(noArgs.code).toBe(2);
    expect(read(w.dir, (ctx) => ctx.db.select().from(broadcasts).all())).toHaveLength(0);
  });
});

describe("broadcast status", () => {
  test("text and --json (the API's GetBroadcastStatus shape); unknown id: exit 2", () => {
    const w = world(2);
    nearcast(["broadcast", "send", "--yes", "--business", String(w.businessId), "--message", "Status please", "--no-wait"], w.dir);
    const text = nearcast(["broadcast", "status", "1"], w.dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Broadcast:  1");
    expect(text.stdout).toContain("Business:   Ana's Bakery");
    expect(text.stdout).toContain("Queued:     2");
    expect(text.stdout).toContain("Expired:    0\n");
    expect(text.stdout).toContain("Completed:  not yet");
    const json = nearcast(["broadcast", "status", "1", "--json"], w.dir);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body).toEqual({
      id: 1,
      businessId: w.businessId,
      messageText: "Status please",
      couponCode: null,
      uniqueCoupons: false,
      couponExpiresAt: null,
      // Issue 25: whether its links go as short links (this text has none).
      trackLinks: false,
      imagePath: null,
      createdAt: expect.any(String),
      total: 2,
      queued: 2,
      sent: 0,
      delivered: 0,
      failed: 0,
      skipped: 0,
      expired: 0,
      cancelled: 0,
      retryable: 0,
      waiting: { quietHours: 0, dailyLimit: 0, quietHoursUntil: null },
      queueAhead: 0, // no other shop sending
      completedAt: null,
      scheduledFor: null,
      startedAt: body.createdAt,
      cancelledAt: null,
      state: "sending",
    });
    const unknown = nearcast(["broadcast", "status", "42"], w.dir);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("nearcast: Broadcast not found.\n");
  });
});
