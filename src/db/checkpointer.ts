// WAL checkpoints on a thread of their own, for `nearcast serve`.
//
// In WAL mode every commit appends pages to nearcast.db-wal, and a checkpoint copies them back into the database
// file (and syncs it). By default the connection that commits does that itself, every 1000 pages, on the event loop:
// under load that is a pause of several milliseconds that every request waits for, and checkpointing more rarely (a
// bigger WAL) makes the pauses fewer but longer. Here a worker thread with its own connection does PASSIVE checkpoints
// several times a second, so the server's thread only appends. Its connection keeps automatic checkpoints as a safety
// net at SAFETY_NET_PAGES (should the worker fall behind or die), and goes back to SQLite's default when it stops.
import type { Database } from "bun:sqlite";
import type { Logger } from "../lib/logger.ts";
import type { CheckpointerReport, CheckpointerStart } from "./checkpoint-worker.ts";
import { dbWorkerUrl } from "./worker-url.ts";

/** Automatic checkpoints of the server's connection while the worker runs (SQLite's default is 1000 pages). */
export const SAFETY_NET_PAGES = 10_000;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
const STOP_TIMEOUT_MS = 2000;

export interface CheckpointerOptions {
  /** Between checkpoints; default 200 ms. */
  everyMs?: number;
  /** Quiet checkpoints before the WAL file is truncated (checkpoint-worker.ts IDLE_TICKS). */
  idleTicks?: number;
  logger: Logger;
  /** Every report of the thread (tests). */
  onReport?: (report: CheckpointerReport) => void;
}

export interface Checkpointer {
  /** Resolves once the thread has its connection (true), or has failed and the server checkpoints itself (false). */
  readonly ready: Promise<boolean>;
  /** A last checkpoint, then the thread ends and the connection checkpoints by itself again. */
  stop(): Promise<void>;
}

/** `sqlite` is the server's connection to `path`, the database file. */
export function startCheckpointer(sqlite: Database, path: string, options: CheckpointerOptions): Checkpointer {
  const { logger } = options;
  let running = true;
  let stopped: (() => void) | null = null;
  let markReady: (ok: boolean) => void = () => {};
  const ready = new Promise<boolean>((resolve) => {
    markReady = resolve;
  });
  const ownCheckpoints = () => {
    try {
      sqlite.exec(`PRAGMA wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    } catch {
      // the connection is already closed
    }
  };
  const fail = (why: string) => {
    if (!running) return;
    running = false;
    ownCheckpoints();
    logger.warn(`WAL checkpoints: the background thread stopped (${why}); the server checkpoints by itself`);
    markReady(false);
    stopped?.();
  };

  let worker: Worker;
  try {
    worker = new Worker(dbWorkerUrl("checkpoint-worker.ts"));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
    return { ready, stop: async () => {} };
  }
  // The server's connection leaves checkpoints to the thread, keeping a safety net.
  sqlite.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  worker.onmessage = (event: MessageEvent<CheckpointerReport>) => {
    const r = event.data;
    options.onReport?.(r);
    if (r.kind === "ready") markReady(true);
    else if (r.kind === "failed") fail(r.message);
    else if (r.kind === "stopped") stopped?.();
  };
  worker.onerror = (event) => fail(event.message || "worker error");
  // The thread must not keep the process alive by itself.
  (worker as Worker & { unref?(): void }).unref?.();
  worker.postMessage({ path, everyMs: options.everyMs ?? 200, idleTicks: options.idleTicks } satisfies CheckpointerStart);

  return {
    ready,
    async stop() {
      if (!running) return;
      running = false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_TIMEOUT_MS);
        stopped = () => {
          clearTimeout(timer);
          resolve();
        };
        worker.postMessage("stop");
      });
      worker.terminate();
      ownCheckpoints();
    },
  };
}
