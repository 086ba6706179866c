// Issue 23 item 11: each owner sees where their broadcast stands among the shops sending at the same time. The status
// API gives `queueAhead` (other shops' broadcasts sending: the dispatcher takes turns between shops), and the history
// screen and the CLI say "Starts after 2 other shops" / "Sending alongside 2 other shops".
import { afterAll, describe, expect, test } from "bun:test";
import { queueLine } from "../../src/schemas/broadcast-queue.ts";
import { waitingText } from "../../cli/broadcast-progress.ts";
import { apiClient } from "../helpers/api.ts";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/context.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { cliEnv, nearcast, tempDataDirs } from "../helpers/cli.ts";
import { type TestContext, testContext } from "../helpers/context.ts";
import { insertBusiness } from "../helpers/factories.ts";
import { type ApiScenario, request, runScenarios, type ScenarioWorld } from "../helpers/scenario.ts";
import { broadcastIn, member, shopWithSubscribers } from "../helpers/worlds.ts";

interface QueueWorld extends ScenarioWorld {
  ctx: TestContext;
  mine: number;
  finished: number;
}

/** Ana's broadcast, not sent yet, while two other owners' shops send theirs (one with two broadcasts: one shop); a
 * third shop's is finished and a fourth's is only scheduled (neither counts). Ana has a finished one too. */
async function world(): Promise<QueueWorld> {
  const ctx = testContext();
  const ana = member(ctx);
  const ben = member(ctx);
  const cy = member(ctx);
  const admin = member(ctx, { role: "admin" });
  const shop = (ownerId: number) => shopWithSubscribers(ctx, 3, { business: { ownerId } }).business.id;
  const anas = shop(ana.id);
  const bens = shop(ben.id);
  const cys = shop(cy.id);
  const mine = (await broadcastIn(ctx, "queued", { businessId: anas })).id;
  await broadcastIn(ctx, "sending", { businessId: bens });
  await broadcastIn(ctx, "queued", { businessId: bens, text: "A second list, same shop" });
  await broadcastIn(ctx, "sending", { businessId: cys });
  const finished = (await broadcastIn(ctx, "completed", { businessId: shop(ana.id) })).id;
  await broadcastIn(ctx, "completed", { businessId: shop(cy.id) });
  await broadcastIn(ctx, "scheduled", { businessId: shop(ben.id) });
  return { ctx, api: apiClient(ctx), mine, finished, tokens: { owner: ana.token, other: ben.token, admin: admin.token } };
}

const status = (as: string) => request<QueueWorld>(as, "GET", (w) => `/api/business/GetBroadcastStatus?id=${w.mine}`);

const scenarios: ApiScenario<QueueWorld>[] = [
  status("owner")("queueAhead: the two other shops sending (one with two broadcasts counts once)", 200, {
    expectBody: { state: "sending", queued: 3, total: 3, queueAhead: 2 },
    expect: (body) => expect(queueLine(body)).toBe("Starts after 2 other shops"),
  }),
  status("admin")("the admin sees the same place", 200, { expectBody: { queueAhead: 2 } }),
  status("other")("another owner cannot see it", 404),
  request<QueueWorld>("owner", "GET", (w) => `/api/business/GetBroadcastStatus?id=${w.finished}`)("a finished broadcast has no place in the queue", 200, {
    expectBody: { state: "completed" },
    expect: (body) => expect(body.queueAhead).toBeUndefined(),
  }),
];

describe("GetBroadcastStatus: queueAhead", () => {
  runScenarios(scenarios, { world, done: (w) => w.ctx.close() });
});

describe("the words", () => {
  const sending = { state: "sending" as const, total: 10, queued: 10, queueAhead: 2 };
  test("nothing sent yet: starts after the others; some sent: alongside them; alone, or not sending: nothing", () => {
    expect(queueLine(sending)).toBe("Starts after 2 other shops");
    expect(queueLine({ ...sending, queued: 7 })).toBe("Sending alongside 2 other shops");
    expect(queueLine({ ...sending, queueAhead: 1 })).toBe("Starts after 1 other shop");
    expect(queueLine({ ...sending, queueAhead: 0 })).toBe("");
    expect(queueLine({ ...sending, queueAhead: undefined })).toBe("");
    expect(queueLine({ ...sending, state: "completed", queued: 0 })).toBe("");
  });
  test("the CLI's progress line carries them after what waits", () => {
    expect(waitingText({ ...sending, queued: 7, waiting: { quietHours: 3, dailyLimit: 0 } })).toBe(" · 3 held for quiet hours · Sending alongside 2 other shops");
    expect(waitingText({ ...sending, queueAhead: 0, waiting: { quietHours: 0, dailyLimit: 0 } })).toBe("");
  });
});

describe("nearcast broadcast status", () => {
  const dirs = tempDataDirs("nearcast-broadcast-queue");
  afterAll(() => dirs.removeAll());
  test("says where a broadcast stands among the shops sending", async () => {
    const dir = dirs.make();
    const ctx = createContext(loadConfig({}, { dataDir: dir }), { logger: new MemoryLogger() });
    let mine: number;
    try {
      mine = (await broadcastIn(ctx, "queued", { businessId: shopWithSubscribers(ctx, 2).business.id })).id;
      for (let i = 0; i < 2; i++) await broadcastIn(ctx, "sending", { businessId: shopWithSubscribers(ctx, 2).business.id });
      insertBusiness(ctx); // a shop with nothing to send does not count
    } finally {
      ctx.close();
    }
    const run = nearcast(["broadcast", "status", String(mine)], dir, cliEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Queued:     2 (Starts after 2 other shops)");
  });
});
