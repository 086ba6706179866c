// The inbox (issue 24) on the built executable: signed inbound webhooks from the fake Twilio, a reply stored and shown
// by the API and the CLI, its media fetched with the account's credentials and served to its owner only, the owner's
// answer reaching the fake Twilio, a WhatsApp answer refused outside 24 hours with the reason, and one owner never
// seeing another's conversation.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPLY_WHATSAPP_WINDOW_CLOSED } from "../../src/schemas/inbox.ts";
import { type FakeTwilio, startFakeTwilio } from "../helpers/fake-twilio.ts";
import { png } from "../helpers/images.ts";
import { type InboxSeed, SEED_PHONES, seedInboxInProcess } from "../helpers/inbox-seed.ts";
import { BINARY, httpClient, type RunningBinary, startBinary } from "../helpers/server.ts";
import { until } from "../helpers/until.ts";

let fake: FakeTwilio;
let server: RunningBinary;
let seed: InboxSeed;
let api: ReturnType<typeof httpClient>;
const work = mkdtempSync(join(tmpdir(), "nearcast-inbox-smoke-"));
const dataDir = join(work, "data");

beforeAll(async () => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npx bun scripts/build.ts\` first`);
  fake = startFakeTwilio();
  seed = seedInboxInProcess(dataDir);
  server = await startBinary({ ...fake.settings(), NEARCAST_SEND_RATE: "20", NEARCAST_LOG_LEVEL: "error" }, dataDir);
  api = httpClient(server.url);
});

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  rmSync(work, { recursive: true, force: true });
});

// No public URL set: Twilio signs the address it called, the server's own.
const text = (from: string, body: string, media: string[] = []) =>
  fake.sendInbound(`${server.url}/api/webhooks/twilio/inbound`, server.url, { from, body, media });

const cli = (...args: string[]) => {
  const p = Bun.spawnSync([BINARY, ...args, "--data-dir", dataDir], { env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" }, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
};

test("a reply with a picture is stored and shown by the API and the CLI, to its owner only", async () => {
  const picture = png(4, 4);
  expect((await text(SEED_PHONES.fan, "Do you bake on Sundays?", [`${fake.url}${fake.media.add(picture, "image/png")}`])).status).toBe(200);
  expect((await text(SEED_PHONES.gymFan, "Pool open?")).status).toBe(200);

  const mine = await api("GET", "/api/inbox/ListConversations", undefined, seed.ownerA);
  expect(mine.body.items.map((i: { phone: string }) => i.phone)).toEqual([SEED_PHONES.fan]);
  expect(mine.body.items[0]).toMatchObject({ unread: 1, lastMessagePreview: "Do you bake on Sundays?", businessName: "A Bakery" });
  const theirs = await api("GET", "/api/inbox/ListConversations", undefined, seed.ownerB);
  expect(theirs.body.items.map((i: { phone: string }) => i.phone)).toEqual([SEED_PHONES.gymFan]);
  expect((await api("GET", `/api/inbox/GetConversation?customerId=${seed.fan}&businessId=${seed.bakery}`, undefined, seed.ownerB)).status).toBe(404);
  expect((await api("GET", "/api/inbox/UnreadCount", undefined, seed.ownerA)).body).toEqual({ unread: 1 });

  // The picture: fetched with the account's credentials, then served to the owner only.
  let url = "";
  await until(async () => {
    const t = await api("GET", `/api/inbox/GetConversation?customerId=${seed.fan}&businessId=${seed.bakery}`, undefined, seed.ownerA);
    url = t.body.items[0]?.mediaUrls[0] ?? "";
    return url !== "";
  }, 10_000, "the picture stored");
  expect(fake.media.fetches.map((f) => f.authorized)).toEqual([true]);
  const got = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${seed.ownerA}` } });
  expect(got.status).toBe(200);
  expect(Buffer.from(await got.arrayBuffer()).equals(Buffer.from(picture))).toBe(true);
  expect((await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${seed.ownerB}` } })).status).toBe(404);
  expect((await fetch(`${server.url}${url}`)).status).toBe(401);

  const listed = cli("inbox", "list", "--json");
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).map((r: { phone: string }) => r.phone).sort()).toEqual([SEED_PHONES.fan, SEED_PHONES.gymFan].sort());
  const shown = cli("inbox", "show", "--customer", String(seed.fan), "--business", String(seed.bakery));
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain("them: Do you bake on Sundays? (+1 picture(s))");
});

test("the owner's answer reaches Twilio; a WhatsApp answer outside 24 hours is refused with the reason", async () => {
  const r = await api("POST", "/api/inbox/Reply", { customerId: seed.fan, businessId: seed.bakery, messageText: "Yes, 8 to 2!" }, seed.ownerA);
  expect(r.status).toBe(200);
  await until(() => fake.sends().some((s) => s.form.Body === "Yes, 8 to 2!"), 10_000, "the answer sent");
  expect(fake.sends().find((s) => s.form.Body === "Yes, 8 to 2!")!.form.To).toBe(SEED_PHONES.fan);

  const wa = await api("POST", "/api/inbox/Reply", { customerId: seed.whatsappFan, businessId: seed.bakery, messageText: "Hi!" }, seed.ownerA);
  expect(wa.status).toBe(400);
  expect(wa.body.fields).toEqual({ messageText: REPLY_WHATSAPP_WINDOW_CLOSED });
  expect((await api("POST", "/api/inbox/Reply", { customerId: seed.fan, businessId: seed.bakery, messageText: "x" }, seed.ownerB)).status).toBe(404);

  const byCli = cli("inbox", "reply", "--customer", String(seed.fan), "--business", String(seed.bakery), "--message", "See you!");
  expect(byCli.code).toBe(0);
  expect(byCli.stdout).toStartWith("Queued your SMS answer");
  await until(() => fake.sends().some((s) => s.form.Body === "See you!"), 10_000, "the CLI's answer sent");
});
