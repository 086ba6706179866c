import { describe, expect, test } from "bun:test";
import { FakeClock } from "../../src/clock.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { createMessenger } from "../../src/messaging/index.ts";
import type { StatusUpdate } from "../../src/messaging/messenger.ts";
import {
  SANDBOX_FAILURE_CODE,
  SANDBOX_FAILURE_MESSAGE,
  SandboxMessenger,
  type SandboxOptions,
  type Timers,
} from "../../src/messaging/sandbox.ts";
import { until } from "../helpers/until.ts";

/** Timers that only fire when the test advances them (and move the clock with them). */
class ManualTimers implements Timers {
  private queue: Array<{ id: number; at: number; fn: () => void }> = [];
  private nextId = 1;
  private elapsed = 0;
  constructor(private readonly clock: FakeClock) {}
  set(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.queue.push({ id, at: this.elapsed + ms, fn });
    return id;
  }
  clear(handle: unknown): void {
    this.queue = this.queue.filter((t) => t.id !== handle);
  }
  advance(ms: number): void {
    const target = this.elapsed + ms;
    for (;;) {
      const due = this.queue.filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.queue = this.queue.filter((t) => t !== due);
      this.clock.advance(due.at - this.elapsed);
      this.elapsed = due.at;
      due.fn();
    }
    this.clock.advance(target - this.elapsed);
    this.elapsed = target;
  }
  get size(): number {
    return this.queue.length;
  }
}

function sandbox(options: SandboxOptions = {}) {
  const clock = new FakeClock();
  const timers = new ManualTimers(clock);
  const updates: StatusUpdate[] = [];
  const logger = new MemoryLogger();
  const m = new SandboxMessenger({
    clock,
    timers,
    logger,
    deliveryDelayMs: 1000,
    onStatus: (u) => updates.push(u),
    ...options,
  });
  return { m, clock, timers, updates, logger };
}

describe("sandbox messenger", () => {
  test("send: sent at once with a fake SMsandbox id; Delivered after the delay, reported and looked up", async () => {
    const { m, clock, timers, updates } = sandbox();
    const sentAt = clock.now();
    const out = await m.send({ to: "+15551234567", channel: "sms", body: "Hello", mediaUrl: "/uploads/a.png", statusCallback: "/api/webhooks/twilio/status?delivery=42" });
    if (out.kind !== "sent") throw new Error(`expected sent, got ${out.kind}`);
    expect(out.providerId).toMatch(/^SMsandbox[0-9a-f]{25}$/);
    expect(out.providerId).toHaveLength(34);
    expect(out).toMatchObject({ status: "Sent", providerStatus: "sent" });
    expect(await m.lookup(out.providerId)).toEqual({
      providerId: out.providerId,
      status: "Sent",
      providerStatus: "sent",
      errorCode: null,
      errorMessage: null,
    });
    timers.advance(999);
    expect(updates).toHaveLength(0);
    timers.advance(1);
    expect(updates).toEqual([
      {
        providerId: out.providerId,
        status: "Delivered",
        providerStatus: "delivered",
        errorCode: null,
        errorMessage: null,
        at: new Date(sentAt.getTime() + 1000),
        // from the status callback URL, as Twilio's callback would name it
        deliveryId: 42,
      },
    ]);
    expect((await m.lookup(out.providerId))?.status).toBe("Delivered");
    expect(m.messages()[0]).toMatchObject({ to: "+15551234567", channel: "sms", body: "Hello", mediaUrl: "/uploads/a.png" });
  });

  test("numbers ending in 0000 fail (for demos and tests), on both channels", async () => {
    const { m, timers, updates } = sandbox();
    const a = await m.send({ to: "+15551230000", channel: "sms", body: "x" });
    const b = await m.send({ to: "+15551230000", channel: "whatsapp", body: "x" });
    const c = await m.send({ to: "+15551200001", channel: "sms", body: "x" });
    expect([a.kind, b.kind, c.kind]).toEqual(["sent", "sent", "sent"]);
    timers.advance(1000);
    expect(updates.map((u) => u.status)).toEqual(["Failed", "Failed", "Delivered"]);
    expect(updates[0]).toMatchObject({
      providerStatus: "undelivered",
      errorCode: SANDBOX_FAILURE_CODE,
      errorMessage: "Sandbox: simulated failure for numbers ending in 0000",
    });
    expect(SANDBOX_FAILURE_MESSAGE).toBe("Sandbox: simulated failure for numbers ending in 0000");
  });

  test("refuses what Twilio would refuse, without recording it", async () => {
    const { m } = sandbox();
    expect(await m.send({ to: "555-1234", channel: "sms", body: "x" })).toMatchObject({ kind: "failed", code: null });
    expect(await m.send({ to: "+15551234567", channel: "sms", body: "" })).toMatchObject({ kind: "failed", code: null });
    expect(await m.send({ to: "+15551234567", channel: "sms", body: "x".repeat(1601) })).toMatchObject({ kind: "failed" });
    expect(m.messages()).toHaveLength(0);
  });

  test("memory is bounded; a forgotten message still gets its status reported", async () => {
    const { m, timers, updates } = sandbox({ capacity: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const out = await m.send({ to: `+1555123450${i}`, channel: "sms", body: `n${i}` });
      if (out.kind === "sent") ids.push(out.providerId);
    }
    expect(m.messages().map((x) => x.body)).toEqual(["n2", "n3", "n4"]);
    expect(await m.lookup(ids[0]!)).toBeNull();
    timers.advance(1000);
    expect(updates.map((u) => u.providerId)).toEqual(ids);
  });

  test("close() cancels what is pending; nothing is reported afterwards", async () => {
    const { m, timers, updates } = sandbox();
    await m.send({ to: "+15551234567", channel: "sms", body: "x" });
    expect(m.pendingCount).toBe(1);
    m.close();
    expect(m.pendingCount).toBe(0);
    expect(timers.size).toBe(0);
    timers.advance(5000);
    expect(updates).toHaveLength(0);
  });

  test("a status receiver that throws is logged, not propagated", async () => {
    const { m, timers, logger } = sandbox({
      onStatus: () => {
        throw new Error("database is locked");
      },
    });
    await m.send({ to: "+15551234567", channel: "sms", body: "x" });
    expect(() => timers.advance(1000)).not.toThrow();
    expect(logger.lines).toEqual([expect.stringMatching(/^error sandbox status for SMsandbox\w+ not recorded: database is locked$/)]);
  });

  test("findRecent: by number, channel, text and time", async () => {
    const { m, clock } = sandbox();
    const before = clock.now();
    const out = await m.send({ to: "+15551234567", channel: "whatsapp", body: "Promo" });
    clock.advance(10);
    const after = clock.now();
    expect((await m.findRecent({ to: "+15551234567", channel: "whatsapp", body: "Promo" }, before))?.providerId).toBe(
      (out as { providerId: string }).providerId,
    );
    expect(await m.findRecent({ to: "+15551234567", channel: "sms", body: "Promo" }, before)).toBeNull();
    expect(await m.findRecent({ to: "+15551234567", channel: "whatsapp", body: "Other" }, before)).toBeNull();
    expect(await m.findRecent({ to: "+15551234567", channel: "whatsapp", body: "Promo" }, after)).toBeNull();
  });

  test("createMessenger without Twilio: the sandbox, on real timers", async () => {
    const updates: StatusUpdate[] = [];
    const m = createMessenger(
      { twilio: null, twilioApiBase: "https://api.twilio.com", publicUrl: "http://localhost:3000" },
      { onStatus: (u) => updates.push(u), sandboxDelayMs: 5 },
    );
    expect(m.name).toBe("sandbox");
    expect((await m.send({ to: "+15551234567", channel: "sms", body: "x" })).kind).toBe("sent");
    await until(() => updates.length > 0, 5000, "the simulated status");
    expect(updates.map((u) => u.status)).toEqual(["Delivered"]);
    m.close();
  });
});
