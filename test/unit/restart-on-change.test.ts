// restartOnChange on its own, with stand-in dispatchers: a changed settings key stops the running dispatcher, frees
// what it was built with and starts a new one; an unchanged key (or one that cannot be read) leaves it running.
import { afterEach, describe, expect, jest, test } from "bun:test";
import type { Dispatcher, DispatcherState } from "../../src/dispatch/dispatcher.ts";
import { restartOnChange } from "../../src/dispatch/restart-on-change.ts";
import { emptyStats } from "../../src/dispatch/stats.ts";
import { MemoryLogger } from "../../src/lib/logger.ts";
import { until } from "../helpers/until.ts";

interface Stand {
  n: number;
  events: string[];
  dispatcher: Dispatcher;
}

function world(initialKey = "a") {
  let key = initialKey;
  let readFails = false;
  let reads = 0;
  const events: string[] = [];
  const built: Stand[] = [];
  const logger = new MemoryLogger();
  const d = restartOnChange({
    settingsKey: () => {
      reads++;
      if (readFails) throw new Error("database is locked");
      return key;
    },
    build: () => {
      const n = built.length + 1;
      let state: DispatcherState = "idle";
      const stand: Stand = {
        n,
        events,
        dispatcher: {
          start() {
            events.push(`start ${n}`);
            state = "dispatching";
            return "dispatching";
          },
          async stop() {
            await Promise.resolve();
            events.push(`stop ${n}`);
            state = "stopped";
          },
          get state() {
            return state;
          },
          stats: { ...emptyStats(), sent: n },
          whenDispatching: () => Promise.resolve(),
        },
      };
      built.push(stand);
      events.push(`build ${n} with ${key}`);
      return { dispatcher: stand.dispatcher, release: () => events.push(`release ${n}`) };
    },
    logger,
    checkEveryMs: 5,
  });
  /** Waits until the check has read the settings `n` more times (it runs every 5 ms), each read compared and done. */
  const severalChecks = (n = 8) => {
    const target = reads + n;
    return until(() => reads >= target, 2000, `${n} checks`);
  };
  return {
    d,
    severalChecks,
    events,
    built,
    logger,
    setKey: (k: string) => {
      key = k;
    },
    failReads: (fail: boolean) => {
      readFails = fail;
    },
  };
}

let running: Dispatcher[] = [];
afterEach(async () => {
  for (const d of running) await d.stop();
  running = [];
});

describe("restartOnChange", () => {
  test("builds and starts one dispatcher; with no change it is left alone", async () => {
    const w = world();
    running.push(w.d);
    expect(w.d.start()).toBe("dispatching");
    await w.severalChecks();
    expect(w.events).toEqual(["build 1 with a", "start 1"]);
    expect(w.d.state).toBe("dispatching");
    expect(w.d.stats.sent).toBe(1);
    expect(w.logger.lines).toEqual([]);
  });

  test("a changed key: the old one is stopped, then released, then a new one is built and started", async () => {
    const w = world();
    running.push(w.d);
    w.d.start();
    w.setKey("b");
    await until(() => w.events.includes("start 2"), 2000, "the restart");
    expect(w.events).toEqual(["build 1 with a", "start 1", "stop 1", "release 1", "build 2 with b", "start 2"]);
    expect(w.built[0]!.dispatcher.state).toBe("stopped");
    // The wrapper now answers for the new one.
    expect(w.d.state).toBe("dispatching");
    expect(w.d.stats.sent).toBe(2);
    expect(w.logger.lines).toEqual(["info dispatcher: the messaging settings changed; restarting with the new ones"]);
    // Once only: the key stays "b".
    await w.severalChecks();
    expect(w.built).toHaveLength(2);
  });

  test("a key that cannot be read is logged and keeps the running dispatcher", async () => {
    const w = world();
    running.push(w.d);
    w.d.start();
    w.failReads(true);
    await until(() => w.logger.lines.length > 0, 2000, "the error logged");
    expect(w.logger.lines[0]).toBe("error dispatcher: could not read the settings: database is locked");
    expect(w.events).toEqual(["build 1 with a", "start 1"]);
    w.failReads(false);
    w.setKey("c");
    await until(() => w.events.includes("start 2"), 2000, "the restart once readable");
  });

  test("stop() stops and releases the current one, and no check restarts it afterwards", async () => {
    // On the fake clock: "no check afterwards" is then no timer left, and eight check periods passing change nothing.
    jest.useFakeTimers();
    try {
      const w = world();
      w.d.start();
      expect(jest.getTimerCount()).toBe(1);
      await w.d.stop();
      expect(w.events).toEqual(["build 1 with a", "start 1", "stop 1", "release 1"]);
      expect(jest.getTimerCount()).toBe(0);
      w.setKey("z");
      jest.advanceTimersByTime(40);
      await Promise.resolve();
      expect(w.events).toHaveLength(4);
      expect(w.d.state).toBe("stopped");
    } finally {
      jest.useRealTimers();
    }
  });
});
