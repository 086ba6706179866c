// `nearcast doctor` lints the messaging program (issue 23, item 1): /terms and /privacy must answer on the public URL
// (doctor fetches them), each active business's samples must name it and carry STOP, and a US sender the carriers
// have not approved is "Register your number before sending". The checklist API shows the same lines, with the link
// to the registration kit.
import { afterAll, afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { REGISTER_BEFORE_SENDING } from "../../src/schemas/registration.ts";
import { apiClient } from "../helpers/api.ts";
import { type Env, cliEnv, nearcastAsync, tempDataDirs, withDataDir } from "../helpers/cli.ts";
import { testContext } from "../helpers/context.ts";
import { insertBroadcast } from "../helpers/delivery-factories.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { member } from "../helpers/worlds.ts";

setDefaultTimeout(30_000); // every test starts a real process

const dirs = tempDataDirs("nearcast-cli-doctor-program");
/** The shop's public web site as the world sees it: /terms and /privacy answer with the status each test sets. */
const legal = { terms: 200, privacy: 200 };
const site = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: (req) => {
    const path = new URL(req.url).pathname;
    const status = path === "/terms" ? legal.terms : path === "/privacy" ? legal.privacy : 404;
    return new Response(status === 200 ? "<!doctype html><title>Legal</title>" : "Not found", { status, headers: { "content-type": "text/html" } });
  },
});
const SITE = `http://127.0.0.1:${site.port}`;
afterEach(() => Object.assign(legal, { terms: 200, privacy: 200 }));
afterAll(() => {
  site.stop(true);
  dirs.removeAll();
});

// Twilio set with a US sender; its API unreachable (the account check is not what these tests are about).
const US_SENDER: Env = {
  TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`,
  TWILIO_AUTH_TOKEN: "x".repeat(32),
  TWILIO_FROM: "+14155550199",
  TWILIO_MESSAGING_SERVICE_SID: undefined,
  TWILIO_WHATSAPP_FROM: undefined,
  TWILIO_API_BASE: "http://127.0.0.1:9",
  NEARCAST_PUBLIC_URL: SITE,
};

/** The lines of doctor's output about the program and the registration: [mark, title, detail]. */
async function programLines(dir: string, env: Env) {
  const run = await nearcastAsync(["doctor"], dir, cliEnv(env));
  expect(run.stderr).toBe("");
  return run.stdout
    .trimEnd()
    .split("\n")
    .map((line) => /^(ok|warn|FAIL)\s+([^:]+):\s+(.*)$/.exec(line)?.slice(1, 4))
    .filter((m) => m && (m[1] === "Messaging program" || m[1] === "Carrier registration"));
}

function shopDir(): { dir: string; id: number } {
  const dir = dirs.make();
  const id = withDataDir(dir, (ctx) => insertBusiness(ctx, { name: "Rosa's Bakery" }).id);
  return { dir, id };
}

describe("nearcast doctor: the messaging program", () => {
  test("all reachable, samples fine, US sender approved: both lines ok", async () => {
    const { dir } = shopDir();
    const lines = await programLines(dir, { ...US_SENDER, NEARCAST_SENDER_REGISTRATION: "approved" });
    expect(lines).toEqual([
      ["ok", "Messaging program", "Consent text, samples, terms and privacy pass the carriers' checks for 1 business(es)."],
      ["ok", "Carrier registration", "+14155550199 is approved by the carriers."],
    ]);
  });

  test("/privacy answers 404 on the public URL: warn, naming the page and the address", async () => {
    const { dir } = shopDir();
    legal.privacy = 404;
    const [program] = await programLines(dir, { ...US_SENDER, NEARCAST_SENDER_REGISTRATION: "approved" });
    expect(program![0]).toBe("warn");
    expect(program![2]).toStartWith(`Carriers' reviewers cannot open /privacy: 404 on ${SITE}.`);
    expect(program![2]).not.toContain("/terms");
  });

  test("a recent broadcast without STOP: warn, naming the business", async () => {
    const { dir, id } = shopDir();
    withDataDir(dir, (ctx) => insertBroadcast(ctx, { businessId: id, messageText: "Half price bagels today!" }));
    const [program] = await programLines(dir, { ...US_SENDER, NEARCAST_SENDER_REGISTRATION: "approved" });
    expect(program![0]).toBe("warn");
    expect(program![2]).toContain(`Rosa's Bakery (#${id}): 1 recent broadcast(s) were left out of the samples because they do not name Rosa's Bakery or say "Reply STOP to opt out"`);
  });

  test("a US sender not approved: warn, Register your number before sending; a non-US sender has no such line", async () => {
    const { dir } = shopDir();
    for (const state of [undefined, "pending"]) {
      const [, registration] = await programLines(dir, { ...US_SENDER, NEARCAST_SENDER_REGISTRATION: state });
      expect(registration![0]).toBe("warn");
      expect(registration![1]).toBe("Carrier registration");
      expect(registration![2]).toStartWith(`${REGISTER_BEFORE_SENDING}: +14155550199 ${state === "pending" ? "is waiting for the carriers' approval" : "is not registered with the carriers"}`);
    }
    const uk = await programLines(dir, { ...US_SENDER, TWILIO_FROM: "+447700900123" });
    expect(uk.map((l) => l![1])).toEqual(["Messaging program"]);
  });

  test("no active business: no program line (nothing to check)", async () => {
    const lines = await programLines(dirs.make(), US_SENDER);
    expect(lines.map((l) => l![1])).toEqual(["Carrier registration"]);
  });
});

describe("GET /api/settings/Checklist: the same lines, with the link to the kit", () => {
  test("US sender unregistered and /terms unreachable: two amber lines linking to /registration", async () => {
    legal.terms = 500;
    const ctx = testContext({ ...(US_SENDER as Record<string, string>), NEARCAST_PUBLIC_URL: SITE });
    try {
      insertBusiness(ctx, { name: "Rosa's Bakery" });
      const admin = member(ctx, { role: "admin" });
      const res = await apiClient(ctx).get("/api/settings/Checklist", { token: admin.token });
      expect(res.status).toBe(200);
      const items = res.body.items.filter((i: { id: string }) => i.id === "program" || i.id === "registration");
      expect(items).toEqual([
        expect.objectContaining({ id: "program", status: "amber", link: { href: "/registration", label: "Registration kit" } }),
        expect.objectContaining({ id: "registration", status: "amber", title: "Carrier registration", link: { href: "/registration", label: "Registration kit" } }),
      ]);
      expect(items[0].detail).toContain("/terms: 500");
    } finally {
      ctx.close();
    }
  });
});
