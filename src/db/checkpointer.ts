// WAL checkpoints on a thread of their own, for `nearcast serve`.
//
// In WAL mode every commit appends pages to nearcast.db-wal, and a checkpoint copies them back into the database
// file (and syncs it). By default the connection that commits does that itself, every 1000 pages, on the event loop:
// under load that is a pause of several milliseconds that every request waits for, and checkpointing more rarely (a
// bigger WAL) makes the pauses fewer but longer. Here a worker thread with its own connection does PASSIVE checkpoints
// several times a second, so the server's thread only appends. Its connection keeps automatic checkpoints as a safety
// net at SAFETY_NET_PAGES (should the worker fall behind or die), and goes back to SQLite's default when it stops.
// The thread also runs serve's check of every page of the file, once, in the background (checkWholeFile).
import type { Database } from "bun:sqlite";
import type { Logger } from "../lib/logger.ts";
import type { CheckpointerReport, CheckpointerStart, WholeFileCheckRequest } from "./checkpoint-worker.ts";
import type { DatabaseState } from "./integrity.ts";
import { dbWorkerUrl } from "./worker-url.ts";

/** Automatic checkpoints of the server's connection while the worker runs (SQLite's default is 1000 pages). */
export const SAFETY_NET_PAGES = 10_000;
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
const STOP_TIMEOUT_MS = 2000;
/** How long the whole-file check waits for a writer to let go before it calls the file busy (tried again later). */
const CHECK_BUSY_WAIT_MS = 5000;

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
  /** quick_check of every page, on the thread (seconds on a big file; checkpoints wait meanwhile). Rejects when the
   * thread is not there or ends first: nothing was learnt about the file. */
  checkWholeFile(): Promise<DatabaseState>;
}

/** `sqlite` is the server's connection to `path`, the database file. */
export function startCheckpointer(sqlite: Database, path: string, options: CheckpointerOptions): Checkpointer {
  const { logger } = options;
  let running = true;
  /** The thread was ended by stop(): it answers nothing any more. */
  let ended = false;
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

  const checks: { resolve: (s: DatabaseState) => void; reject: (e: Error) => void }[] = [];
  const endChecks = (why: string) => {
    for (const c of checks.splice(0)) c.reject(new Error(why));
  };

  let worker: Worker;
  try {
    worker = new Worker(dbWorkerUrl("checkpoint-worker.ts"));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    fail(why);
    return { ready, stop: async () => {}, checkWholeFile: () => Promise.reject(new Error(`the thread did not start (${why})`)) };
  }
  // The server's connection leaves checkpoints to the thread, keeping a safety net.
  sqlite.exec(`PRAGMA wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
  worker.onmessage = (event: MessageEvent<CheckpointerReport>) => {
    const r = event.data;
    options.onReport?.(r);
    if (r.kind === "ready") markReady(true);
    else if (r.kind === "failed") fail(r.message);
    else if (r.kind === "stopped") stopped?.();
    else if (r.kind === "checked") checks.shift()?.resolve(r.state);
  };
  worker.onerror = (event) => {
    fail(event.message || "worker error");
    endChecks(event.message || "the thread failed");
  };
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
      ended = true;
      endChecks("the server stopped first");
      ownCheckpoints();
    },
    checkWholeFile() {
      if (ended) return Promise.reject(new Error("the thread has ended"));
      return new Promise<DatabaseState>((resolve, reject) => {
        checks.push({ resolve, reject });
        worker.postMessage({ check: { busyWaitMs: CHECK_BUSY_WAIT_MS } } satisfies WholeFileCheckRequest);
      });
    },
  };
}
