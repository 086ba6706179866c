// The dispatcher's side of a paused channel (src/dispatch/channel-gate.ts), on an in-memory pause store: an account
// problem holds the row and pauses its channel once; the other channel goes on; one probe at a time; a probe that
// Twilio takes (or refuses for the recipient only) resumes; one that never reached Twilio does not.
import { describe, expect, test } from "bun:test";
import { ChannelGate } from "../../src/dispatch/channel-gate.ts";
import type { ChannelPause, ClaimedDelivery, DeliveryChannel, PauseStore } from "../../src/dispatch/store.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import type { SendOutcome } from "../../src/messaging/messenger.ts";

const TOKEN: SendOutcome = { kind: "account_problem", code: 20003, message: "Twilio refused the credentials", fix: "Save the token." };
const PROBE_EVERY = 1000;

function world() {
  const pauses = new Map<DeliveryChannel, ChannelPause>();
  const held = new Map<number, DeliveryChannel>(); // id -> channel, parked
  const calls: string[] = [];
  const store: PauseStore = {
    list: () => [...pauses.values()],
    pause: (p) => {
      if (pauses.has(p.channel)) return false;
      pauses.set(p.channel, p);
      return true;
    },
    resume: (channel) => {
      pauses.delete(channel);
      const ids = [...held].filter(([, c]) => c === channel).map(([id]) => id);
      for (const id of ids) held.delete(id);
      return ids.length;
    },
    hold: (channel) => {
      calls.push(`hold ${channel}`);
      return 0;
    },
    probe: (channel) => {
      const id = [...held].find(([, c]) => c === channel)?.[0] ?? null;
      if (id !== null) held.delete(id);
      return id;
    },
  };
  const gate = new ChannelGate({
    pauses: store,
    store: {
      park: (id, _now, reason) => {
        calls.push(`park ${id}: ${reason}`);
        held.set(id, id >= 100 ? "WhatsApp" : "SMS");
      },
      requeue: () => calls.push("requeue"),
    },
    logger: new MemoryLogger(),
    probeEveryMs: PROBE_EVERY,
  });
  const row = (id: number, channel: DeliveryChannel = "SMS"): ClaimedDelivery => ({ id, broadcastId: 1, customerId: id, channel, toPhone: "+14155550100", attempts: 1, claimedAt: 0, status: "Sending" });
  return { gate, pauses, held, calls, row };
}

describe("an account problem", () => {
  test("holds the row, pauses its channel once (with the reason and fix), and holds that channel's next claims; WhatsApp goes on", () => {
    const { gate, pauses, calls, row } = world();
    gate.refresh(0);
    expect(gate.settle(row(1), TOKEN, 10)).toBe(true);
    expect(gate.settle(row(2), TOKEN, 11)).toBe(true);
    expect([...pauses.values()]).toEqual([{ channel: "SMS", code: 20003, reason: "Twilio refused the credentials", fix: "Save the token.", since: 10 }]);
    expect(gate.admit(row(3), 12)).toBe(false);
    expect(gate.admit(row(100, "WhatsApp"), 12)).toBe(true);
    expect(calls).toEqual([
      "park 1: Paused: Twilio refused the credentials",
      "park 2: Paused: Twilio refused the credentials",
      "park 3: Paused: Twilio refused the credentials",
    ]);
    // The rest of the channel's queue is held at the next refresh, at once.
    gate.refresh(500);
    expect(calls.at(-1)).toBe("hold SMS");
  });

  test("without a pause store it is retried later, never failed", () => {
    const calls: string[] = [];
    const gate = new ChannelGate({ pauses: undefined, store: { park: () => calls.push("park"), requeue: (_id, at) => calls.push(`requeue at ${at}`) }, logger: new MemoryLogger(), probeEveryMs: PROBE_EVERY });
    expect(gate.settle({ id: 1, broadcastId: 1, customerId: 1, channel: "SMS", toPhone: "+14155550100", attempts: 2, claimedAt: 0, status: "Sending" }, TOKEN, 0)).toBe(true);
    expect(calls).toEqual(["requeue at 2000"]);
  });
});

describe("the probe", () => {
  test("one held row every probeEveryMs; a probe that never reached Twilio keeps the pause; one Twilio takes resumes the channel", () => {
    const { gate, pauses, held, row } = world();
    gate.refresh(0);
    gate.settle(row(1), TOKEN, 0);
    gate.settle(row(2), TOKEN, 0);
    gate.refresh(PROBE_EVERY - 1);
    expect(held.size).toBe(2); // not due yet
    gate.refresh(PROBE_EVERY);
    expect(held.size).toBe(1); // one let through
    const probe = row(1);
    expect(gate.admit(probe, PROBE_EVERY)).toBe(true);
    gate.refresh(PROBE_EVERY + 1);
    expect(held.size).toBe(1); // no second probe while the first is out
    expect(gate.settle(probe, { kind: "unavailable", message: "refused" }, PROBE_EVERY + 2)).toBe(false);
    expect(pauses.size).toBe(1);
    gate.refresh(2 * PROBE_EVERY - 1);
    expect(held.size).toBe(1); // the next probe waits its turn
    gate.refresh(2 * PROBE_EVERY);
    expect(held.size).toBe(0);
    expect(gate.admit(row(2), 2 * PROBE_EVERY)).toBe(true);
    expect(gate.settle(row(2), { kind: "failed", code: 21211, message: "Invalid 'To' Phone Number" }, 2 * PROBE_EVERY + 3)).toBe(false);
    expect(pauses.size).toBe(0);
    expect(gate.paused("SMS")).toBe(false);
    expect(gate.admit(row(4), 2 * PROBE_EVERY + 4)).toBe(true);
  });

  test("a dispatcher that starts with a pause kept from before probes at once; a pause lifted elsewhere ends here too", () => {
    const { gate, pauses, held, row } = world();
    pauses.set("SMS", { channel: "SMS", code: 21606, reason: "sender", fix: "fix", since: 0 });
    held.set(7, "SMS");
    gate.refresh(5);
    expect(held.size).toBe(0);
    expect(gate.admit(row(7), 5)).toBe(true);
    expect(gate.admit(row(8), 5)).toBe(false);
    pauses.delete("SMS"); // the settings changed in another process
    gate.refresh(6);
    expect(gate.paused("SMS")).toBe(false);
  });
});
