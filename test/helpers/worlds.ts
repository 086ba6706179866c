// The worlds integration tests build, one builder per kind, so a file names the world it needs instead of copying
// its set-up: a fake Twilio for the file, the people who call the API (owner A with a bakery and a cafe, owner B with
// a gym, the admin), and a shop with N subscribers, and a broadcast in each state.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import type { Config } from "../../src/config.ts";
import type { AppContext } from "../../src/context.ts";
import { eq, inArray } from "drizzle-orm";
import { broadcasts, type businesses, deliveries, type users } from "../../src/db/schema.ts";
import { OPERATOR, type Principal } from "../../src/services/principal.ts";
import { apiClient } from "./api.ts";
import { withDataDir } from "./cli.ts";
import { type TestContext, testContext } from "./context.ts";
import { insertSubscriber, sessionFor } from "./customer-factories.ts";
import { type BusinessRow, insertBusiness, insertUser } from "./factories.ts";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, type FakeTwilio, type FakeTwilioOptions, startFakeTwilio } from "./fake-twilio.ts";

type Ctx = Pick<AppContext, "db" | "repos" | "clock">;
type UserFields = Partial<typeof users.$inferInsert>;
type BusinessFields = Partial<typeof businesses.$inferInsert>;

/** The file's fake Twilio; `follow` makes its message times those of a test's fake clock. */
export type FileFakeTwilio = FakeTwilio & { follow(clock: { now(): Date }): void };

/**
 * A fake Twilio started before the file's (or describe block's) tests and stopped after them, reset before each with
 * `resetEach`. It is usable as a FakeTwilio from inside the tests (not at the file's top level, where it is not
 * started yet); its clock is the real one until `follow`.
 */
export function fakeTwilioForFile(options: Omit<FakeTwilioOptions, "now"> & { resetEach?: boolean } = {}): FileFakeTwilio {
  const { resetEach, ...fakeOptions } = options;
  let started: FakeTwilio | undefined;
  let now = () => new Date();
  beforeAll(() => {
    started = startFakeTwilio({ ...fakeOptions, now: () => now() });
  });
  afterAll(async () => {
    await started?.stop();
  });
  // Before the file's own beforeEach (registered after this), so a test's scripted replies survive.
  if (resetEach) beforeEach(() => started?.reset());
  const follow = (clock: { now(): Date }) => {
    now = () => clock.now();
  };
  return new Proxy({} as FileFakeTwilio, {
    get(_, key) {
      if (key === "follow") return follow;
      if (!started) throw new Error("the file's fake Twilio is started in beforeAll: use it inside a test");
      const value = Reflect.get(started, key);
      return typeof value === "function" ? value.bind(started) : value;
    },
    // Its settable fields (templates, accountStatus, latencyMs) go to the fake too.
    set(_, key, value) {
      if (!started) throw new Error("the file's fake Twilio is started in beforeAll: use it inside a test");
      return Reflect.set(started, key, value);
    },
  });
}

/** A test context whose clock the file's fake Twilio follows (sending through it only if `env` has its settings). */
export function contextFollowing(fake: FileFakeTwilio, env: Record<string, string> = {}, config: Partial<Config> = {}): TestContext {
  const ctx = testContext(env, config);
  fake.follow(ctx.clock);
  return ctx;
}

/** A test context sending through the file's fake Twilio (reset), whose clock the fake follows. */
export function contextOnFake(fake: FileFakeTwilio, env: Record<string, string> = {}, config: Partial<Config> = {}): TestContext {
  const ctx = contextFollowing(fake, { ...fake.settings(), ...env }, config);
  fake.reset();
  return ctx;
}

/** Stops the dispatchers a test started (and forgets them). */
export async function stopDispatchers(running: { stop(): Promise<void> }[]): Promise<void> {
  for (const d of running.splice(0)) await d.stop();
}

/** A user who calls the API: the row's id and a session token (issued directly; the auth middleware still runs). */
export interface Member {
  id: number;
  token: string;
}

export function member(ctx: Ctx, fields: UserFields = {}): Member {
  const row = insertUser(ctx, fields);
  return { id: row.id, token: sessionFor(ctx, row) };
}

export interface OwnersOptions {
  ownerA?: UserFields;
  bakery?: BusinessFields;
  /** Leave out owner A's second business (the cafe) or the admin where a test counts rows. */
  cafe?: false;
  admin?: false;
  /** Insert the admin before the owners (the ids some files' assertions were written against). */
  adminFirst?: boolean;
}

/** Owner A (A Bakery, A Cafe), owner B (B Gym) and the admin. */
export function ownersWorld(ctx: Ctx, options: OwnersOptions = {}) {
  const early = options.adminFirst && options.admin !== false ? member(ctx, { role: "admin" }) : undefined;
  const ownerA = member(ctx, { role: "owner", ...options.ownerA });
  const ownerB = member(ctx, { role: "owner" });
  const admin = early ?? (options.admin === false ? undefined : member(ctx, { role: "admin" }));
  const bakery = insertBusiness(ctx, { ownerId: ownerA.id, name: "A Bakery", ...options.bakery });
  const cafe = options.cafe === false ? undefined : insertBusiness(ctx, { ownerId: ownerA.id, name: "A Cafe" });
  const gym = insertBusiness(ctx, { ownerId: ownerB.id, name: "B Gym" });
  return { ownerA, ownerB, admin: admin as Member, bakery, cafe: cafe as BusinessRow, gym };
}

type SubscriberFields = NonNullable<Parameters<typeof insertSubscriber>[2]>;

export interface ShopOptions {
  /** The owner's fields (a new owner is made either way unless business.ownerId names one). */
  owner?: UserFields;
  business?: BusinessFields;
  /** With a count of subscribers: how many of the first are on WhatsApp. */
  whatsapp?: number;
}

/** A business with active subscribers: `n` made up (the first `whatsapp` on WhatsApp), or exactly the ones listed. */
export function shopWithSubscribers(ctx: Ctx, subscribers: number | SubscriberFields[], options: ShopOptions = {}) {
  const ownerId = options.business?.ownerId ?? insertUser(ctx, options.owner).id;
  const business = insertBusiness(ctx, { ...options.business, ownerId });
  const list = typeof subscribers === "number"
    ? Array.from({ length: subscribers }, (_, i): SubscriberFields => ({ contactPreference: i < (options.whatsapp ?? 0) ? "WhatsApp" : "SMS" }))
    : subscribers;
  const subs = list.map((fields) => insertSubscriber(ctx, business.id, fields));
  return { ownerId, business, subs, phones: subs.map((s) => s.customer.phone) };
}

/** A data directory of `dirs` (migrated) holding Ana's Bakery (owner@shop.com) and its subscribers, for CLI runs. */
export function cliShop(dirs: { make(): string }, subscribers: number | SubscriberFields[]) {
  const dir = dirs.make();
  return withDataDir(dir, (ctx) => {
    const shop = shopWithSubscribers(ctx, subscribers, { owner: { email: "owner@shop.com" }, business: { name: "Ana's Bakery" } });
    return { dir, businessId: shop.business.id };
  });
}

/** An owner with a shop of `subscribers` active subscribers, another owner and the admin, and an API client. */
export function ownerWithShop(subscribers: number, env: Record<string, string> = {}) {
  const ctx = testContext(env);
  const owner = member(ctx);
  const other = member(ctx);
  const admin = member(ctx, { role: "admin" });
  const businessId = shopWithSubscribers(ctx, subscribers, { business: { ownerId: owner.id } }).business.id;
  return { ctx, api: apiClient(ctx), owner, other, admin, businessId };
}

/** A broadcast's state as the API shows it, with "queued" (published, nothing claimed yet) beside "sending" (one claimed). */
export type BroadcastState = "scheduled" | "queued" | "sending" | "completed" | "cancelled";

export interface BroadcastOptions {
  businessId: number;
  text?: string;
  /** Who publishes it (the operator unless told). */
  as?: Principal;
  image?: Uint8Array | null;
  /** A scheduled (or cancelled) one's time: an hour after the clock's now unless told. */
  scheduledFor?: Date;
}

/**
 * A broadcast of a business (with active subscribers) in `state`, made through the services (publish, publish with
 * scheduledFor, cancel); "sending" and "completed" then move its deliveries as the dispatcher would (one claimed; all
 * sent and the broadcast completed). `at` is its scheduled time (ms) or null.
 */
export async function broadcastIn(ctx: Ctx & Pick<AppContext, "services">, state: BroadcastState, options: BroadcastOptions) {
  const text = options.text ?? "Fresh bagels, 2 for 1 today";
  const later = state === "scheduled" || state === "cancelled";
  const scheduledFor = later ? (options.scheduledFor ?? new Date(ctx.clock.now().getTime() + 3_600_000)).toISOString() : undefined;
  const res = await ctx.services.broadcasts.publish(options.as ?? OPERATOR, { businessId: String(options.businessId), messageText: text, scheduledFor, image: options.image });
  if (!("broadcastId" in res)) throw new Error("nothing published");
  const id = res.broadcastId;
  if (state === "cancelled") ctx.services.broadcasts.cancel(OPERATOR, String(id));
  const first = ctx.db.select({ id: deliveries.id }).from(deliveries).where(eq(deliveries.broadcastId, id)).limit(1).all();
  if (state === "sending") ctx.db.update(deliveries).set({ status: "Sending" }).where(inArray(deliveries.id, first.map((d) => d.id))).run();
  if (state === "completed") {
    ctx.db.update(deliveries).set({ status: "Sent", sentAt: ctx.clock.now() }).where(eq(deliveries.broadcastId, id)).run();
    ctx.db.update(broadcasts).set({ completedAt: ctx.clock.now() }).where(eq(broadcasts.id, id)).run();
  }
  return { id, text, at: scheduledFor === undefined ? null : Date.parse(scheduledFor) };
}

/** A shop with `n` subscribers and a broadcast to them published by the operator (queued for the dispatcher). */
export async function queuedBroadcast(
  ctx: Ctx & Pick<AppContext, "services">,
  n: number,
  options: { text?: string; whatsapp?: number; business?: BusinessFields; image?: Uint8Array | null } = {},
) {
  const shop = shopWithSubscribers(ctx, n, options);
  const { id, text } = await broadcastIn(ctx, "queued", { businessId: shop.business.id, text: options.text, image: options.image });
  return { ...shop, broadcastId: id, text };
}

/** Twilio configured (so webhooks must be signed with FAKE_AUTH_TOKEN) but unreachable: webhooks never call Twilio. */
export const SIGNED_WEBHOOKS_ENV = {
  TWILIO_ACCOUNT_SID: FAKE_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN: FAKE_AUTH_TOKEN,
  TWILIO_FROM: "+15005550006",
  TWILIO_API_BASE: "http://127.0.0.1:9",
  NEARCAST_PUBLIC_URL: "https://shop.example.com",
};

/** Runs `fn` on a world made for one test, and closes the world however `fn` ends. */
export async function closing<W extends { ctx: { close(): void } }>(w: W, fn: (w: W) => unknown): Promise<void> {
  try {
    await fn(w);
  } finally {
    w.ctx.close();
  }
}
