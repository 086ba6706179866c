// The WAL checkpointer's thread (src/db/checkpointer.ts): its own connection to the database file, a PASSIVE
// checkpoint every `everyMs`. A passive checkpoint never blocks the server's connection: it copies what no reader
// still needs into the database file (and syncs it), and the next write starts the WAL over once all of it is copied.
// But the file keeps its size: after a 100,000-message broadcast, tens of MB of WAL on a Pi's SD card. So once the
// WAL has been fully copied and unchanged for IDLE_TICKS checkpoints, a TRUNCATE checkpoint empties it; with no busy
// wait, so a reader or writer that is there makes it give up until the next quiet moment instead of waiting.
// The same thread runs serve's whole-file check (quick_check of every page, once, on a connection of its own) when
// asked: a second thread for a check that runs once would keep its memory after it ends (issue 26 item 2).
import { Database } from "bun:sqlite";
import { type DatabaseState, databaseState } from "./integrity.ts";

declare const self: Worker;

export interface CheckpointerStart {
  path: string;
  everyMs: number;
  /** Quiet checkpoints (nothing new in the WAL) before it is truncated; default IDLE_TICKS. */
  idleTicks?: number;
}

/** Asks for quick_check of every page; `busyWaitMs` is how long it waits for a writer before it answers "busy". */
export interface WholeFileCheckRequest {
  check: { busyWaitMs: number };
}

/** 10 x 200 ms: two seconds without a write. */
export const IDLE_TICKS = 10;

/** What the thread reports: after opening, after each checkpoint that copied frames, and on stop or failure. */
export type CheckpointerReport =
  | { kind: "ready" }
  | { kind: "checkpointed"; walFrames: number; copied: number }
  | { kind: "truncated"; walFrames: number }
  | { kind: "failed"; message: string }
  | { kind: "stopped" }
  | { kind: "checked"; state: DatabaseState };

let path = "";
let db: Database | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
let idleTicks = IDLE_TICKS;
/** The WAL's frames at the last checkpoint, and for how many checkpoints it has stayed fully copied at that size. */
let lastFrames = 0;
let quiet = 0;
const report = (r: CheckpointerReport) => postMessage(r);

type CheckpointRow = { busy: number; log: number; checkpointed: number };

function checkpoint(): void {
  if (!db) return;
  try {
    const row = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as CheckpointRow | null;
    if (!row) return;
    if (row.checkpointed > 0) report({ kind: "checkpointed", walFrames: row.log, copied: row.checkpointed });
    quiet = row.log > 0 && row.busy === 0 && row.checkpointed === row.log && row.log === lastFrames ? quiet + 1 : 0;
    lastFrames = row.log;
    if (quiet >= idleTicks) truncate(row.log);
  } catch (err) {
    // A locked database (SQLITE_BUSY) is tried again at the next tick; anything else ends the thread.
    const message = err instanceof Error ? err.message : String(err);
    if (/busy|locked/i.test(message)) return;
    stop();
    report({ kind: "failed", message });
  }
}

function truncate(frames: number): void {
  quiet = 0;
  db!.exec("PRAGMA busy_timeout = 0");
  try {
    const row = db!.query("PRAGMA wal_checkpoint(TRUNCATE)").get() as CheckpointRow | null;
    if (row && row.busy === 0) {
      lastFrames = 0;
      report({ kind: "truncated", walFrames: frames });
    }
  } finally {
    db!.exec("PRAGMA busy_timeout = 1000");
  }
}

function stop(): void {
  if (timer) clearInterval(timer);
  timer = null;
  db?.close();
  db = null;
}

self.onmessage = (event: MessageEvent<CheckpointerStart | WholeFileCheckRequest | "stop">) => {
  if (event.data === "stop") {
    checkpoint();
    stop();
    report({ kind: "stopped" });
    return;
  }
  // Answered even when checkpoints failed: the check opens its own connection (and may be what finds out why).
  if ("check" in event.data) {
    report({ kind: "checked", state: databaseState(path, "quick_check", event.data.check.busyWaitMs) });
    return;
  }
  path = event.data.path;
  try {
    db = new Database(path, { strict: true });
    db.exec("PRAGMA busy_timeout = 1000");
    db.exec("PRAGMA synchronous = NORMAL");
    // This connection never checkpoints by itself when it closes: the server's connection may still be writing.
    db.exec("PRAGMA wal_autocheckpoint = 0");
    idleTicks = event.data.idleTicks ?? IDLE_TICKS;
    timer = setInterval(checkpoint, event.data.everyMs);
    report({ kind: "ready" });
  } catch (err) {
    stop();
    report({ kind: "failed", message: err instanceof Error ? err.message : String(err) });
  }
};
