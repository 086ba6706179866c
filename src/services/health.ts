// GET /api/health: the version, whether the database answers a trivial query, and whether the dispatcher runs (its
// send loop went round lately) or stands by for another server. 503 when either is broken, so a monitor or systemd
// watchdog sees a server that answers HTTP but no longer sends.
import type { Clock } from "../clock.ts";
import type { Dispatcher } from "../dispatch/dispatcher.ts";
import type { Repos } from "../repos/index.ts";
import { VERSION } from "../version.ts";

/** The send loop goes round at least every half second when idle (idlePollMs); this long without is a hang. */
export const DISPATCHER_STALL_MS = 30_000;

export type DispatcherHealth = "running" | "standby" | "not started" | "stalled" | "stopped";

export interface HealthReport {
  status: "ok" | "error";
  version: string;
  database: "ok" | "error";
  dispatcher: { state: DispatcherHealth; lastTickAt: string | null };
}

export function createHealthService(deps: { repos: Repos; clock: Clock; dispatcher: () => Dispatcher }) {
  return {
    check(): HealthReport {
      let database: HealthReport["database"] = "ok";
      try {
        deps.repos.ping();
      } catch {
        database = "error";
      }
      const d = deps.dispatcher();
      const last = d.stats.lastTickAt;
      const state: DispatcherHealth =
        d.state === "dispatching"
          ? last !== null && deps.clock.now().getTime() - last > DISPATCHER_STALL_MS
            ? "stalled"
            : "running"
          : d.state === "idle"
            ? "not started"
            : d.state;
      const ok = database === "ok" && state !== "stalled" && state !== "stopped";
      return { status: ok ? "ok" : "error", version: VERSION, database, dispatcher: { state, lastTickAt: last === null ? null : new Date(last).toISOString() } };
    },
  };
}
