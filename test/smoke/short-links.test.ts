// Issue 25 on the built executable with the fake Twilio: a broadcast with a link to 20 subscribers goes out as 20
// distinct short links on the public URL; following 5 of them (one twice, one more only by a link preview) records 5
// clicks from 5 people on the results, and each answer is a 302 to the original URL.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { seedShop } from "../helpers/seed-shop.ts";
import { fakeTwilioEnv, type RunningBinary, startBinary } from "../helpers/server.ts";
import { useFakeTwilioBinary } from "../helpers/smoke-fake-twilio-binary.ts";
import { until } from "../helpers/until.ts";

const world = useFakeTwilioBinary("nearcast-short-links-");
const DEALS = "https://rosas-bakery.example.com/autumn?utm_source=sms";
const PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36";
const SHORT = /https:\/\/deals\.example\.com\/l\/([0-9A-Za-z]{8})/;
let server: RunningBinary;
let env: Record<string, string>;
let businessId = 0;

beforeAll(async () => {
  businessId = await seedShop(world.dataDir, { ownerEmail: "rosa@shop.com", businessName: "Rosa's Bakery", subscribers: 20, firstNumber: 5550300 });
  env = { ...fakeTwilioEnv(world.fake, 50), NEARCAST_LOG_LEVEL: "error" };
  server = await startBinary(env, world.dataDir, { binary: world.bin });
});

afterAll(async () => {
  await server?.stop();
});

test("20 distinct short links go out; 5 followed (one twice, one more by a preview) are 5 clicks, each a 302 to the URL", async () => {
  const send = Bun.spawnSync({
    cmd: [world.bin, "broadcast", "send", "--business", String(businessId), "--message", `Autumn bake sale: ${DEALS}`, "--yes", "--no-wait", "--data-dir", world.dataDir],
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  expect(send.stdout.toString()).toContain("Broadcast queued: 20 messages to 20 subscribers.");
  await until(() => world.fake.sends().length >= 20, 20_000, "20 messages at the fake");
  const bodies = world.fake.sends().map((s) => String(s.form.Body));
  expect(bodies).toHaveLength(20);
  const codes = bodies.map((b) => SHORT.exec(b)?.[1]);
  expect(codes.every((c) => c !== undefined)).toBe(true);
  expect(new Set(codes).size).toBe(20);
  expect(bodies[0]).toBe(`Autumn bake sale: https://deals.example.com/l/${codes[0]}`);

  const follow = async (code: string, ua = PHONE) => {
    const res = await fetch(`${server.url}/l/${code}`, { redirect: "manual", headers: { "user-agent": ua } });
    return [res.status, res.headers.get("location")];
  };
  for (const code of codes.slice(0, 5)) expect(await follow(code!)).toEqual([302, DEALS]);
  expect(await follow(codes[0]!)).toEqual([302, DEALS]);
  expect(await follow(codes[5]!, "WhatsApp/2.24.21.80 A")).toEqual([302, DEALS]);

  // Clicks are written at the server's next turn after their answers: wait for the fifth, then nothing more may come.
  const db = new Database(join(world.dataDir, "nearcast.db"), { readonly: true });
  try {
    const clicked = () => db.query<{ code: string }, []>("SELECT code FROM link_clicks ORDER BY id").all().map((r) => r.code);
    await until(() => clicked().length >= 5, 5_000, "5 clicks stored");
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(clicked()).toEqual(codes.slice(0, 5) as string[]);

    // The results say the same: 5 clicks from 5 people of 20 (the CLI prints the API's JSON).
    const { id } = db.query<{ id: number }, []>("SELECT id FROM broadcasts WHERE kind = 'promotion'").get()!;
    const results = Bun.spawnSync({
      cmd: [world.bin, "broadcast", "results", String(id), "--json", "--data-dir", world.dataDir],
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    const r = JSON.parse(results.stdout.toString());
    expect([r.recipients, r.clicks, r.uniqueClickers, r.people.length]).toEqual([20, 5, 5, 5]);
  } finally {
    db.close();
  }
});
